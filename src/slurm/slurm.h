/*
 * slurm.h - drain and resume a Slurm node the way LBNL NHC does: through
 * `scontrol`, a reason prefixed "gpudoctor:", and a node resumed only when
 * gpudoctor drained it (its reason carries the prefix). scontrol is looked
 * for in the usual install directories (or given), and run only when root
 * or the caller alone can change it; it is run directly, never through a
 * shell.
 */
#ifndef GPUDOCTOR_SLURM_H
#define GPUDOCTOR_SLURM_H

#include <stdbool.h>
#include <stddef.h>

#define SLURM_REASON_PREFIX "gpudoctor:"

struct slurm_node {
	char name[128];
	char state[128];             /* "IDLE+DRAIN", "MIXED" */
	char reason[512];            /* "" none */
	bool drained;                /* DRAIN in the state */
};

/* scontrol to use: path (NULL: the first of /usr/bin, /usr/sbin,
 * /usr/local/bin, /opt/slurm/bin, /usr/local/slurm/bin that has it).
 * 0 with out filled, or -1 with why. */
int slurm_find_scontrol(const char *path, char *out, size_t size, char *why, size_t whysize);
/* `scontrol show node NAME`; 0, or -1 with why. */
int slurm_show(const char *scontrol, const char *node, struct slurm_node *n, char *why, size_t whysize);
/* `scontrol update NodeName=NAME State=DRAIN Reason="gpudoctor: ..."`. */
int slurm_drain(const char *scontrol, const char *node, const char *reason, char *why, size_t whysize);
/* `scontrol update NodeName=NAME State=RESUME`. */
int slurm_resume(const char *scontrol, const char *node, char *why, size_t whysize);

#endif
