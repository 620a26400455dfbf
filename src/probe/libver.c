/* PLACEHOLDER - replaced by the real module. */
#include "probe/probe.h"
struct libver_job *libver_probe_start(struct facts *f, const struct probe_opts *o) { (void)f; (void)o; return 0; }
void libver_probe_finish(struct libver_job *j, struct facts *f) { (void)j; (void)f; }
