/*
 * topology.c - the GPUs' connections, asked of NVML in its child and
 * written as nvidia-smi's matrices in the parent (see topology.h).
 */
#include "probe/topology.h"
#include "probe/probe.h"
#include "base/buf.h"
#include "base/str.h"

#include <stdio.h>
#include <string.h>

/* Whether two bus ids name one device, whatever the domain's width. */
static bool
same_bus(const char *a, const char *b)
{
	char x[32], y[32];

	pci_bus_norm(a, x, sizeof(x));
	pci_bus_norm(b, y, sizeof(y));
	return !strcmp(x, y);
}

void
topology_cpulist(const unsigned long *mask, unsigned n, char *out, size_t size)
{
	unsigned bits = n * 8 * (unsigned)sizeof(unsigned long), i = 0;
	struct buf b;

	buf_init(&b);
	while (i < bits) {
		unsigned j;
		if (!(mask[i / (8 * sizeof(unsigned long))] >> (i % (8 * sizeof(unsigned long))) & 1)) {
			i++;
			continue;
		}
		for (j = i; j + 1 < bits && (mask[(j + 1) / (8 * sizeof(unsigned long))] >>
					      ((j + 1) % (8 * sizeof(unsigned long))) & 1); j++)
			;
		if (j == i)
			buf_addf(&b, "%s%u", b.len ? "," : "", i);
		else
			buf_addf(&b, "%s%u-%u", b.len ? "," : "", i, j);
		i = j + 1;
	}
	str_copy(out, size, b.s ? b.s : "");
	buf_release(&b);
}

void
topology_ask(const struct topo_syms *s, nvmlDevice_t *h, char bus[][NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE],
	     int n, struct topo_answer *a)
{
	int i, j, c;

	memset(a, 0, sizeof(*a));
	memset(a->level, -1, sizeof(a->level));
	memset(a->p2p, -1, sizeof(a->p2p));
	memset(a->link_up, -1, sizeof(a->link_up));
	memset(a->link_down, -1, sizeof(a->link_down));
	if (n > TOPO_MAX)
		n = TOPO_MAX;
	a->n = n;
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			int level, st;
			if (s->ancestor && s->ancestor(h[i], h[j], &level) == NVML_SUCCESS && level >= 0 &&
			    level <= 50)
				a->level[i][j] = a->level[j][i] = (signed char)(level / 10);
			for (c = 0; c < TOPO_CAPS && s->p2p; c++) {
				static const int caps[TOPO_CAPS] = {NVML_P2P_CAPS_INDEX_READ, NVML_P2P_CAPS_INDEX_WRITE,
								    NVML_P2P_CAPS_INDEX_ATOMICS};
				if (s->p2p(h[i], h[j], caps[c], &st) == NVML_SUCCESS && st >= 0 && st <= 6)
					a->p2p[c][i][j] = a->p2p[c][j][i] = (signed char)st;
			}
		}
		/* NVLinks: each active link's far end, a GPU of this machine or a switch */
		if (s->link_state) {
			int up = 0, down = 0;
			unsigned l;
			for (l = 0; l < NVML_NVLINK_MAX_LINKS; l++) {
				int active = 0, type = -1;
				nvmlPciInfo_t pci;
				if (s->link_state(h[i], l, &active) != NVML_SUCCESS)
					break; /* past the GPU's links, or none */
				if (!active) {
					down++;
					continue;
				}
				up++;
				if (s->link_type && s->link_type(h[i], l, &type) == NVML_SUCCESS &&
				    type == NVML_NVLINK_DEVICE_TYPE_SWITCH) {
					a->switch_links[i]++;
					continue;
				}
				memset(&pci, 0, sizeof(pci));
				if (!s->link_remote || s->link_remote(h[i], l, &pci) != NVML_SUCCESS)
					continue;
				pci.busId[sizeof(pci.busId) - 1] = '\0';
				for (j = 0; j < n; j++)
					if (j != i && same_bus(pci.busId, bus[j]))
						break;
				if (j < n)
					a->nvlinks[i][j]++;
				else
					a->switch_links[i]++; /* not a GPU here: a switch */
			}
			if (up + down > 0) {
				a->link_up[i] = (signed char)up;
				a->link_down[i] = (signed char)down;
			}
		}
		if (s->cpu_affinity) {
			unsigned long mask[8];
			memset(mask, 0, sizeof(mask));
			if (s->cpu_affinity(h[i], 8, mask) == NVML_SUCCESS)
				topology_cpulist(mask, 8, a->cpus[i], sizeof(a->cpus[i]));
		}
	}
}

const char *
topology_word(int level10, int nvlinks, char *buf, size_t size)
{
	/* INTERNAL (two GPUs of one board) is shown as the board's switch: PIX */
	static const char *const words[] = {"PIX", "PIX", "PXB", "PHB", "NODE", "SYS"};

	if (nvlinks > 0) {
		snprintf(buf, size, "NV%d", nvlinks);
		return buf;
	}
	if (level10 < 0 || level10 > 5)
		return "?";
	return words[level10];
}

const char *
topology_p2p_word(int status)
{
	static const char *const words[] = {"OK", "CNS", "GNS", "TNS", "DRK", "NS", "U"};

	return status >= 0 && status <= 6 ? words[status] : "?";
}

void
topology_to_facts(const struct topo_answer *a, const int *map, struct facts *f)
{
	int i, j, c, k, any = 0;

	for (i = 0; i < a->n; i++)
		for (j = 0; j < a->n; j++)
			any |= i != j && (a->level[i][j] >= 0 || a->nvlinks[i][j] || a->p2p[0][i][j] >= 0);
	for (i = 0; i < a->n; i++) {
		struct gpu_facts *g;
		struct buf row, p2p[TOPO_CAPS];

		if (map[i] < 0 || map[i] >= f->ngpus)
			continue;
		g = &f->gpus[map[i]];
		g->nvlink_up = a->link_up[i];
		g->nvlink_down = a->link_down[i];
		STR_COPY(g->cpu_affinity, a->cpus[i]);
		if (!any || f->ngpus < 2)
			continue;
		buf_init(&row);
		for (c = 0; c < TOPO_CAPS; c++)
			buf_init(&p2p[c]);
		/* one word per GPU of facts->gpus, in that order */
		for (k = 0; k < f->ngpus && k < MAX_GPUS; k++) {
			char w[16];
			int peer = -1;
			for (j = 0; j < a->n; j++)
				if (map[j] == k)
					peer = j;
			if (k == map[i]) {
				buf_addf(&row, "%sX", row.len ? " " : "");
				for (c = 0; c < TOPO_CAPS; c++)
					buf_addf(&p2p[c], "%sX", p2p[c].len ? " " : "");
				continue;
			}
			if (peer < 0) {
				buf_addf(&row, "%s?", row.len ? " " : "");
				for (c = 0; c < TOPO_CAPS; c++)
					buf_addf(&p2p[c], "%s?", p2p[c].len ? " " : "");
				continue;
			}
			{
				int links = a->nvlinks[i][peer] > a->nvlinks[peer][i] ? a->nvlinks[i][peer]
										    : a->nvlinks[peer][i];
				/* through NVSwitches: the links both have into the fabric */
				if (!links && a->switch_links[i] && a->switch_links[peer])
					links = a->switch_links[i] < a->switch_links[peer] ? a->switch_links[i]
											 : a->switch_links[peer];
				buf_addf(&row, "%s%s", row.len ? " " : "", topology_word(a->level[i][peer], links, w, sizeof(w)));
			}
			for (c = 0; c < TOPO_CAPS; c++)
				buf_addf(&p2p[c], "%s%s", p2p[c].len ? " " : "", topology_p2p_word(a->p2p[c][i][peer]));
		}
		STR_COPY(g->topology, row.s ? row.s : "");
		STR_COPY(g->p2p_read, p2p[0].s ? p2p[0].s : "");
		STR_COPY(g->p2p_write, p2p[1].s ? p2p[1].s : "");
		STR_COPY(g->p2p_atomics, p2p[2].s ? p2p[2].s : "");
		buf_release(&row);
		for (c = 0; c < TOPO_CAPS; c++)
			buf_release(&p2p[c]);
	}
}
