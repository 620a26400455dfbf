/* PLACEHOLDER - replaced by the real module. */
#include "diag/rule.h"
void rule_kmod(const struct facts *f, struct findings *out) { (void)f; (void)out; }
