/*
 * tui.c - `gpudoctor top` on a terminal: a block per GPU (bars for
 * utilization and memory, a sparkline of the last samples, temperature,
 * power, clocks, the clock-event reasons), the process table (sortable,
 * stale processes marked with the command that would end their hold),
 * and the alerts. ncurses (linked statically); read-only: it never sends
 * a signal to anything. Keys: q quit, ? help, s next sort key, m / u / p
 * sort by memory / SM utilization / PID.
 */
#include "monitor/session.h"
#include "base/str.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HISTORY 240
#define MAX_LOG 6

enum { C_OK = 1, C_WARN, C_BAD, C_DIM, C_HEAD };
enum sort_key { SORT_MEM, SORT_SM, SORT_PID, NSORT };
static const char *const sort_names[] = {"memory", "SM %", "PID"};

struct tui {
	struct mon_session *s;
	bool utf8, color, help;
	int sort;
	int interval_ms;
	unsigned char util_hist[MON_MAX_GPUS][HISTORY];
	int nhist;
	char log[MAX_LOG][320];
	int nlog;
};

static void
log_line(struct tui *t, const char *line)
{
	if (t->nlog == MAX_LOG) {
		memmove(t->log[0], t->log[1], sizeof(t->log[0]) * (MAX_LOG - 1));
		t->nlog--;
	}
	STR_COPY(t->log[t->nlog++], line);
}

static int
level_color(double v, double warn, double bad)
{
	return v >= bad ? C_BAD : v >= warn ? C_WARN : C_OK;
}

static void
bar(struct tui *t, int y, int x, int width, double pct, int color)
{
	int fill = pct < 0 ? 0 : (int)(pct / 100.0 * width + 0.5), i;

	if (fill > width)
		fill = width;
	mvaddch(y, x, '[');
	if (t->color)
		attron(COLOR_PAIR(color));
	for (i = 0; i < fill; i++)
		addch('|');
	if (t->color)
		attroff(COLOR_PAIR(color));
	for (; i < width; i++)
		addch(' ');
	addch(']');
}

static void
sparkline(struct tui *t, int gpu, int y, int x, int width)
{
	static const char *const blocks[] = {"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"};
	static const char ascii[] = "_.-=+*#@";
	int n = t->nhist < width ? t->nhist : width, i;

	move(y, x);
	for (i = 0; i < width - n; i++)
		addch(' ');
	for (i = t->nhist - n; i < t->nhist; i++) {
		int v = t->util_hist[gpu][i % HISTORY], k = v * 7 / 100;
		if (k > 7)
			k = 7;
		if (t->utf8)
			addstr(blocks[k]);
		else
			addch((chtype)ascii[k]);
	}
}

static void
put(struct tui *t, int color, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
put(struct tui *t, int color, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	int y, x, rows, cols, room;
	char *p;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* never past the right edge: curses would wrap it onto the next row */
	getyx(stdscr, y, x);
	getmaxyx(stdscr, rows, cols);
	(void)y;
	(void)rows;
	room = cols - x;
	for (p = buf; *p && room > 0; p++)
		if (((unsigned char)*p & 0xc0) != 0x80 && --room == 0) {
			/* keep this character's continuation bytes, then stop */
			while (((unsigned char)p[1] & 0xc0) == 0x80)
				p++;
			p[1] = '\0';
			break;
		}
	if (room <= 0 && x >= cols)
		return;
	if (t->color && color)
		attron(COLOR_PAIR(color));
	addstr(buf);
	if (t->color && color)
		attroff(COLOR_PAIR(color));
}

/* One GPU's block; returns the next free row. */
static int
draw_gpu(struct tui *t, const struct mon_gpu *g, int gi, int y, int cols)
{
	char used[32], total[32], reasons[200];
	int barw = cols > 100 ? 30 : cols > 70 ? 20 : 10;
	double mem_pct = g->mem_total_mib > 0 && g->mem_used_mib != MON_NA
		? 100.0 * (double)g->mem_used_mib / (double)g->mem_total_mib : -1;

	move(y, 0);
	attron(A_BOLD);
	put(t, 0, "GPU %d  %.40s", g->index, g->name);
	attroff(A_BOLD);
	put(t, C_DIM, "  %s", g->bus_id);
	if (g->state != MON_GPU_OK) {
		char err[64];
		mon_nvml_error_name(g->error_rc, err, sizeof(err));
		move(y + 1, 2);
		put(t, C_BAD, "%s (%s): a reset or a reboot brings it back; the kernel log has its Xid",
		    g->state == MON_GPU_LOST ? "LOST: the GPU fell off the bus" : "not answering", err);
		return y + 3;
	}
	if (g->pstate != MON_NA)
		put(t, 0, "  P%d", g->pstate);
	if (g->temp != MON_NA)
		put(t, level_color(g->temp, 75, g->temp_slowdown > 0 ? g->temp_slowdown - 5 : 85), "  %d C", g->temp);
	if (g->power_mw != MON_NA) {
		put(t, 0, "  %.0f", g->power_mw / 1000.0);
		if (g->power_limit_mw > 0)
			put(t, 0, " / %.0f", g->power_limit_mw / 1000.0);
		put(t, 0, " W");
	}
	if (g->fan != MON_NA)
		put(t, 0, "  fan %d %%", g->fan);
	if (g->sm_clock != MON_NA)
		put(t, 0, "  SM %d MHz", g->sm_clock);
	if (g->mem_clock != MON_NA)
		put(t, 0, "  mem %d MHz", g->mem_clock);
	if (g->mig == 1)
		put(t, C_WARN, "  MIG");
	/* utilization */
	mvaddstr(y + 1, 2, "util ");
	bar(t, y + 1, 7, barw, g->util_gpu, level_color(g->util_gpu, 75, 101));
	move(y + 1, 9 + barw);
	if (g->util_gpu == MON_NA)
		put(t, 0, "   -  ");
	else
		put(t, 0, " %3d %%", g->util_gpu);
	if (cols > barw + 30)
		sparkline(t, gi, y + 1, 17 + barw, cols - barw - 18 > 60 ? 60 : cols - barw - 18);
	/* memory */
	mon_fmt_mib(g->mem_used_mib, used, sizeof(used));
	mon_fmt_mib(g->mem_total_mib, total, sizeof(total));
	mvaddstr(y + 2, 2, "mem  ");
	bar(t, y + 2, 7, barw, mem_pct, level_color(mem_pct, 80, 95));
	move(y + 2, 9 + barw);
	put(t, 0, " %s / %s", used, total);
	if (g->util_mem != MON_NA)
		put(t, 0, "   memory util %d %%", g->util_mem);
	/* what holds it back */
	mon_reasons_text(g->reasons, reasons, sizeof(reasons));
	move(y + 3, 2);
	if (reasons[0])
		put(t, g->reasons & (0x8 | 0x40 | 0x80) ? C_BAD : C_WARN, "clocks held down: %s", reasons);
	else
		put(t, C_DIM, "clocks not held down");
	if (g->ecc_uncorrected > 0)
		put(t, C_BAD, "   uncorrected ECC %lld", (long long)g->ecc_uncorrected);
	if (g->remap_pending > 0)
		put(t, C_WARN, "   row remapping pending (reset the GPU)");
	if (g->pcie_gen != MON_NA && g->pcie_width != MON_NA)
		put(t, g->pcie_gen < g->pcie_gen_max || g->pcie_width < g->pcie_width_max ? C_WARN : C_DIM,
		    "   PCIe gen%d x%d", g->pcie_gen, g->pcie_width);
	return y + 5;
}

static const struct mon_sample *sort_sample;
static int sort_by;

static int
cmp_procs(const void *a, const void *b)
{
	const struct mon_proc *p = &sort_sample->procs[*(const int *)a], *q = &sort_sample->procs[*(const int *)b];

	if (sort_by == SORT_MEM && p->mem_mib != q->mem_mib)
		return p->mem_mib < q->mem_mib ? 1 : -1;
	if (sort_by == SORT_SM && p->sm_util != q->sm_util)
		return p->sm_util < q->sm_util ? 1 : -1;
	return p->pid < q->pid ? -1 : p->pid > q->pid;
}

static void
draw_procs(struct tui *t, int y, int rows, int cols)
{
	const struct mon_sample *m = t->s->cur;
	int order[MON_MAX_PROCS], i, n = m->nprocs;

	if (y >= rows)
		return;
	move(y, 0);
	attron(A_REVERSE);
	put(t, 0, "%-*.*s", cols, cols, "");
	mvprintw(y, 0, "%3s %8s %-10s %10s %4s %5s  COMMAND  (sorted by %s)", "GPU", "PID", "USER", "MEMORY", "SM%",
		 "CPU%", sort_names[t->sort]);
	attroff(A_REVERSE);
	y++;
	if (!n && y < rows)
		mvaddstr(y++, 2, "No process is using a GPU.");
	for (i = 0; i < n; i++)
		order[i] = i;
	sort_sample = m;
	sort_by = t->sort;
	qsort(order, (size_t)n, sizeof(order[0]), cmp_procs);
	for (i = 0; i < n && y < rows; i++) {
		const struct mon_proc *p = &m->procs[order[i]];
		char mem[32], sm[8] = "-", cpu[16] = "-", hint[300];
		int room = cols - 48;
		mon_fmt_mib(p->mem_mib, mem, sizeof(mem));
		if (p->sm_util != MON_NA)
			str_fmt(sm, sizeof(sm), "%d", p->sm_util);
		if (p->cpu_pct != MON_NA)
			str_fmt(cpu, sizeof(cpu), "%.0f", p->cpu_pct);
		move(y, 0);
		put(t, p->stale ? C_BAD : 0, "%3d %8u %-10.10s %10s %4s %5s  %s%.*s", m->gpus[p->gpu].index, p->pid,
		    p->user[0] ? p->user : "-", mem, sm, cpu, p->stale ? "STALE " : "", room > 0 ? room : 0,
		    p->command[0] ? p->command : mon_proc_state_name(p->state));
		y++;
		mon_proc_hint(m, p, hint, sizeof(hint));
		if (hint[0] && y < rows) {
			move(y++, 36);
			put(t, p->stale ? C_BAD : C_DIM, "%.*s", cols > 37 ? cols - 37 : 0, hint);
		}
	}
}

static void
draw_help(struct tui *t, int rows, int cols)
{
	static const char *const lines[] = {
		"gpudoctor top - keys",
		"",
		"  q          quit",
		"  ?          this help (any key closes it)",
		"  s          next sort key for the processes",
		"  m / u / p  sort by memory / SM utilization / PID",
		"",
		"Read-only: for a stale process top shows the command that would end",
		"its hold; it never sends a signal itself.",
		"Colours: yellow from 75 % utilization, 80 % memory, 75 C;",
		"red from 95 % memory, 5 C below the slowdown temperature.",
	};
	int i, y0 = rows / 2 - 7, x0 = cols / 2 - 36;

	if (y0 < 0)
		y0 = 0;
	if (x0 < 0)
		x0 = 0;
	for (i = 0; i < (int)(sizeof(lines) / sizeof(lines[0])) && y0 + i < rows; i++) {
		move(y0 + i, x0);
		attron(A_REVERSE);
		put(t, 0, " %-70.70s ", lines[i]);
		attroff(A_REVERSE);
	}
}

static void
draw(struct tui *t)
{
	const struct mon_sample *m = t->s->cur;
	int rows, cols, y = 2, i;
	char when[16];
	time_t now = (time_t)m->wall;
	struct tm tm;

	getmaxyx(stdscr, rows, cols);
	erase();
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	move(0, 0);
	attron(A_BOLD);
	put(t, 0, "gpudoctor top");
	attroff(A_BOLD);
	put(t, 0, "  %.40s  driver %s  %s  every %.3g s", t->s->hostname, m->driver[0] ? m->driver : "?", when,
	    t->interval_ms / 1e3);
	move(1, 0);
	put(t, C_DIM, "q quit  ? help  s sort");
	for (i = 0; i < m->ngpus && y < rows - 3; i++)
		y = draw_gpu(t, &m->gpus[i], i, y, cols);
	/* alerts and notes at the bottom, processes between */
	draw_procs(t, y, rows - t->nlog, cols);
	for (i = 0; i < t->nlog; i++) {
		move(rows - t->nlog + i, 0);
		put(t, strstr(t->log[i], "FIRING") ? C_BAD : C_WARN, "%.*s", cols, t->log[i]);
	}
	if (t->help)
		draw_help(t, rows, cols);
	refresh();
}

static void
take_sample(struct tui *t)
{
	struct mon_session *s = t->s;
	const struct mon_sample *m = s->cur;
	char line[400], when[16];
	time_t now = (time_t)m->wall;
	struct tm tm;
	int i;

	for (i = 0; i < m->ngpus; i++)
		t->util_hist[i][t->nhist % HISTORY] = (unsigned char)(m->gpus[i].util_gpu > 0 ? m->gpus[i].util_gpu : 0);
	t->nhist++;
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	for (i = 0; i < s->nevents; i++) {
		str_fmt(line, sizeof(line), "%s %s %s: %s", when, s->events[i].firing ? "FIRING" : "cleared",
			s->alerts->rules[s->events[i].rule].text, s->events[i].message);
		log_line(t, line);
	}
	for (i = 0; i < s->nnotes; i++) {
		str_fmt(line, sizeof(line), "%s note: %s", when, s->notes[i]);
		log_line(t, line);
	}
	s->nnotes = 0;
}

int
mon_tui_run(struct mon_session *s, int interval_ms, volatile sig_atomic_t *stop)
{
	struct tui *t = calloc(1, sizeof(*t));
	int rc = 0;
	bool have = false;

	if (!t)
		return 3;
	t->s = s;
	t->interval_ms = interval_ms;
	setlocale(LC_ALL, "");
	t->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	if (!initscr()) {
		free(t);
		return 3;
	}
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	timeout(0);
	if (has_colors()) {
		t->color = true;
		start_color();
		use_default_colors();
		init_pair(C_OK, COLOR_GREEN, -1);
		init_pair(C_WARN, COLOR_YELLOW, -1);
		init_pair(C_BAD, COLOR_RED, -1);
		init_pair(C_DIM, COLOR_CYAN, -1);
		init_pair(C_HEAD, COLOR_BLACK, COLOR_CYAN);
	}
	mvaddstr(0, 0, "gpudoctor top: starting the NVML sampler...");
	refresh();
	while (!*stop) {
		int r = mon_session_next(s, 50), ch;
		if (r < 0) {
			rc = 2;
			break;
		}
		if (r > 0) {
			take_sample(t);
			have = true;
			draw(t);
		}
		while ((ch = getch()) != ERR) {
			if (t->help && ch != KEY_RESIZE) {
				t->help = false;
			} else if (ch == 'q' || ch == 'Q') {
				goto out;
			} else if (ch == '?' || ch == 'h') {
				t->help = true;
			} else if (ch == 's') {
				t->sort = (t->sort + 1) % NSORT;
			} else if (ch == 'm') {
				t->sort = SORT_MEM;
			} else if (ch == 'u') {
				t->sort = SORT_SM;
			} else if (ch == 'p') {
				t->sort = SORT_PID;
			}
			if (have)
				draw(t);
		}
		if (s->o.count > 0 && s->taken >= s->o.count)
			break;
	}
out:
	endwin();
	if (rc == 0 && s->alerts)
		rc = s->alerts->worst;
	free(t);
	return rc;
}
