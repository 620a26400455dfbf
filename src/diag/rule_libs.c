/* PLACEHOLDER - replaced by the real module. */
#include "diag/rule.h"
void rule_libs(const struct facts *f, struct findings *out) { (void)f; (void)out; }
