/* PLACEHOLDER - replaced by the real module. */
#include "diag/rule.h"
void rule_mem(const struct facts *f, struct findings *out) { (void)f; (void)out; }
