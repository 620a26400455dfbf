/*
 * topology.h - how the GPUs of one machine connect: the facts behind
 * `nvidia-smi topo -m` and `topo -p2p`. topology_ask runs inside the NVML
 * child (driver.c) and fills a fixed-size answer; topology_to_facts turns
 * it, in the parent, into each GPU's row of the matrices with nvidia-smi's
 * own words, in the order of facts->gpus.
 *
 * The PCIe levels come from nvmlDeviceGetTopologyCommonAncestor (they are
 * PCIe levels only); NVLinks are counted per peer from each link's state
 * and remote PCI address, links to an NVSwitch counting for every GPU that
 * also reaches the switches; P2P from nvmlDeviceGetP2PStatus.
 */
#ifndef GPUDOCTOR_TOPOLOGY_H
#define GPUDOCTOR_TOPOLOGY_H

#include "facts.h"
#include "nvidia/nvml_api.h"

#include <stddef.h>

#define TOPO_MAX MAX_GPUS
#define TOPO_CAPS 3 /* read, write, atomics */

struct topo_syms {
	nvmlDeviceGetTopologyCommonAncestor_fn ancestor;
	nvmlDeviceGetP2PStatus_fn p2p;
	nvmlDeviceGetNvLinkState_fn link_state;
	nvmlDeviceGetNvLinkRemotePciInfo_fn link_remote;
	nvmlDeviceGetNvLinkRemoteDeviceType_fn link_type;
	nvmlDeviceGetCpuAffinity_fn cpu_affinity;
};

struct topo_answer {
	int n;                                  /* devices asked about */
	signed char level[TOPO_MAX][TOPO_MAX];  /* nvmlGpuTopologyLevel_t / 10; -1 unknown */
	unsigned char nvlinks[TOPO_MAX][TOPO_MAX]; /* active links between the two */
	signed char p2p[TOPO_CAPS][TOPO_MAX][TOPO_MAX]; /* nvmlGpuP2PStatus_t; -1 unknown */
	signed char link_up[TOPO_MAX], link_down[TOPO_MAX]; /* -1 unknown */
	unsigned char switch_links[TOPO_MAX];   /* active links to an NVSwitch */
	char cpus[TOPO_MAX][F_NAME];            /* the device's CPU affinity as a list */
};

/* In the NVML child: ask about the n devices of handles h, whose PCI bus
 * ids are bus[] (to match the remote end of each NVLink). Calls whose
 * symbol is NULL or that answer an error leave their part unknown. */
void topology_ask(const struct topo_syms *s, nvmlDevice_t *h, char bus[][NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE],
		  int n, struct topo_answer *a);

/* In the parent: write the rows of facts->gpus from a; map[i] is the index
 * in facts->gpus of NVML device i (-1 when it is not there). */
void topology_to_facts(const struct topo_answer *a, const int *map, struct facts *f);

/* nvidia-smi's word for a pair: "NV<n>" when n NVLinks join them, else the
 * PCIe level's (PIX PXB PHB NODE SYS), "?" unknown. */
const char *topology_word(int level10, int nvlinks, char *buf, size_t size);
/* nvidia-smi topo -p2p's word for a status: OK CNS GNS TNS DRK NS U, "?". */
const char *topology_p2p_word(int status);

/* A cpu mask (n words) as a list: "0-15,32-47". */
void topology_cpulist(const unsigned long *mask, unsigned n, char *out, size_t size);

#endif
