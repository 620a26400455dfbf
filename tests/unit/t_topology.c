/*
 * t_topology.c - the GPUs' connections (probe/topology.c) from NVML's
 * answers to nvidia-smi's words: PCIe levels, NVLinks counted per peer,
 * links into NVSwitches counting for every pair that reaches them (an
 * 8-GPU HGX shows NV18 everywhere), a GPU NVML does not list, P2P words,
 * CPU lists; and the rules hw.p2p_unavailable and hw.nvlink_down.
 */
#include "unit.h"

#include "diag/rule.h"
#include "probe/topology.h"
#include "rules_facts.h"

#include <stdlib.h>
#include <string.h>

static struct topo_answer *
answer(int n)
{
	struct topo_answer *a = calloc(1, sizeof(*a));

	assert_non_null(a);
	a->n = n;
	memset(a->level, -1, sizeof(a->level));
	memset(a->p2p, -1, sizeof(a->p2p));
	memset(a->link_up, -1, sizeof(a->link_up));
	memset(a->link_down, -1, sizeof(a->link_down));
	return a;
}

static struct facts *
machine(int n, const char *name)
{
	struct facts *f = facts_new();
	char bus[32];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(bus, sizeof(bus), "00000000:%02X:00.0", 0x10 * (i + 1));
		add_gpu(f, bus, 0x2335, name, "9.0");
	}
	return f;
}

static void
nvswitch_hgx(void **state)
{
	struct topo_answer *a = answer(8);
	struct facts *f = machine(8, "NVIDIA H200");
	int map[8], i, j;

	(void)state;
	for (i = 0; i < 8; i++) {
		map[i] = i;
		a->switch_links[i] = 18;
		a->link_up[i] = 18;
		a->link_down[i] = 0;
		for (j = 0; j < 8; j++)
			if (i != j) {
				a->level[i][j] = i / 4 == j / 4 ? 4 : 5; /* NODE within a socket, SYS across */
				a->p2p[0][i][j] = 0;
			}
	}
	topology_to_facts(a, map, f);
	assert_string_equal(f->gpus[0].topology, "X NV18 NV18 NV18 NV18 NV18 NV18 NV18");
	assert_string_equal(f->gpus[5].topology, "NV18 NV18 NV18 NV18 NV18 X NV18 NV18");
	assert_string_equal(f->gpus[3].p2p_read, "OK OK OK X OK OK OK OK");
	assert_int_equal(f->gpus[7].nvlink_up, 18);
	assert_int_equal(f->gpus[7].nvlink_down, 0);
	free(a);
	free(f);
}

static void
pcie_and_direct_links(void **state)
{
	struct topo_answer *a = answer(3);
	struct facts *f = machine(4, "NVIDIA A100 80GB PCIe");
	/* NVML lists three of the four: GPU 2 of facts is not among them */
	int map[3] = {0, 1, 3};

	(void)state;
	a->level[0][1] = a->level[1][0] = 1;     /* PIX */
	a->level[0][2] = a->level[2][0] = 5;     /* SYS */
	a->level[1][2] = a->level[2][1] = 3;     /* PHB */
	a->nvlinks[0][1] = 2;                    /* an NVLink bridge of two links */
	a->p2p[0][0][1] = a->p2p[0][1][0] = 0;
	a->p2p[0][0][2] = a->p2p[0][2][0] = 3;   /* TNS */
	a->p2p[0][1][2] = a->p2p[0][2][1] = 1;   /* CNS */
	unsigned long mask[2] = {0xff0fUL, 0};
	topology_cpulist(mask, 2, a->cpus[0], sizeof(a->cpus[0]));
	topology_to_facts(a, map, f);
	assert_string_equal(f->gpus[0].topology, "X NV2 ? SYS");
	assert_string_equal(f->gpus[1].topology, "NV2 X ? PHB");
	assert_string_equal(f->gpus[3].topology, "SYS PHB ? X");
	assert_string_equal(f->gpus[2].topology, ""); /* NVML said nothing of it */
	assert_string_equal(f->gpus[3].p2p_read, "TNS CNS ? X");
	assert_string_equal(f->gpus[0].cpu_affinity, "0-3,8-15");
	free(a);
	free(f);
}

static void
words(void **state)
{
	char b[16];

	(void)state;
	assert_string_equal(topology_word(0, 0, b, sizeof(b)), "PIX");
	assert_string_equal(topology_word(2, 0, b, sizeof(b)), "PXB");
	assert_string_equal(topology_word(4, 0, b, sizeof(b)), "NODE");
	assert_string_equal(topology_word(5, 0, b, sizeof(b)), "SYS");
	assert_string_equal(topology_word(-1, 0, b, sizeof(b)), "?");
	assert_string_equal(topology_word(5, 12, b, sizeof(b)), "NV12");
	assert_string_equal(topology_p2p_word(4), "DRK");
	assert_string_equal(topology_p2p_word(9), "?");
}

static void
p2p_and_nvlink_rules(void **state)
{
	struct facts *f = machine(2, "NVIDIA GeForce RTX 4090");
	struct findings fs;
	const struct finding *fd;

	(void)state;
	STR_COPY(f->gpus[0].topology, "X PHB");
	STR_COPY(f->gpus[1].topology, "PHB X");
	STR_COPY(f->gpus[0].p2p_read, "X OK");
	STR_COPY(f->gpus[1].p2p_read, "OK X");
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.p2p_unavailable"));
	findings_release(&fs);

	/* GeForce without P2P: a note, nothing to fix */
	STR_COPY(f->gpus[0].p2p_read, "X GNS");
	STR_COPY(f->gpus[1].p2p_read, "GNS X");
	run_rule(rule_hw, f, &fs);
	fd = find_id(&fs, "hw.p2p_unavailable");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_INFO);
	assert_true(evidence_has(fd, "GPU0-GPU1: GNS (the GPU does not support it), connected PHB"));
	assert_true(fix_has(fd, "nothing to fix"));
	findings_release(&fs);

	/* the chipset blocks it: a warning with the ACS/IOMMU fix */
	STR_COPY(f->gpus[0].p2p_read, "X CNS");
	run_rule(rule_hw, f, &fs);
	fd = find_id(&fs, "hw.p2p_unavailable");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(fix_has(fd, "sudo lspci -vvv | grep -i acsctl"));
	findings_release(&fs);

	/* 2 of 18 NVLinks down on one GPU */
	f->gpus[1].nvlink_up = 16;
	f->gpus[1].nvlink_down = 2;
	f->gpus[0].nvlink_up = 18;
	f->gpus[0].nvlink_down = 0;
	run_rule(rule_hw, f, &fs);
	fd = find_id(&fs, "hw.nvlink_down");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARN);
	assert_true(evidence_has(fd, "GPU1 NVIDIA GeForce RTX 4090 (00000000:20:00.0): 2 of 18 NVLinks down"));
	assert_true(fix_has(fd, "nvidia-smi nvlink -s"));
	findings_release(&fs);

	/* no link up at all (a PCIe card without a bridge): not this rule */
	f->gpus[1].nvlink_up = 0;
	f->gpus[1].nvlink_down = 18;
	run_rule(rule_hw, f, &fs);
	assert_false(findings_has(&fs, "hw.nvlink_down"));
	findings_release(&fs);
	free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nvswitch_hgx),
		cmocka_unit_test(pcie_and_direct_links),
		cmocka_unit_test(words),
		cmocka_unit_test(p2p_and_nvlink_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
