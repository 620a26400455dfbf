/*
 * wrap.c - prose and commands fitted into a width (see wrap.h).
 */
#include "render/wrap.h"

#include "base/str.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Inside wrap_fit: a blank that is no break point (a command in prose). */
#define NBSP '\x1f'

static int
width_of(const char *s, size_t n)
{
	int w = 0;
	size_t i;

	/* UTF-8: count the bytes that start a character */
	for (i = 0; i < n && s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	return w;
}

void
wrap_text(FILE *fp, int width, const char *first, const char *rest, const char *text)
{
	int col = 0, wfirst = width_of(first, strlen(first)), wrest = width_of(rest, strlen(rest));
	bool started = false, line_open = false;
	const char *p = text;

	if (width < 20)
		width = 80;
	while (*p) {
		const char *e = p;
		int len;

		while (*e && *e != ' ' && *e != '\n')
			e++;
		len = width_of(p, (size_t)(e - p));
		if (!line_open && !started && wfirst > wrest && wfirst + len > width) {
			/* a long first word fits better under the label */
			size_t k = strlen(first);

			while (k > 0 && first[k - 1] == ' ')
				k--;
			fwrite(first, 1, k, fp);
			fputc('\n', fp);
			fputs(rest, fp);
			col = wrest;
			started = line_open = true;
		} else if (!line_open) {
			fputs(started ? rest : first, fp);
			col = started ? wrest : wfirst;
			started = line_open = true;
		} else if (col + 1 + len > width) {
			fputc('\n', fp);
			fputs(rest, fp);
			col = wrest;
		} else if (e > p) {
			fputc(' ', fp);
			col++;
		}
		for (; p < e; p++)
			fputc(*p == NBSP ? ' ' : *p, fp);
		col += len;
		while (*p == ' ')
			p++;
		if (*p == '\n') {
			fputc('\n', fp);
			line_open = false;
			p++;
		}
	}
	if (line_open)
		fputc('\n', fp);
}

void
wrap_hanging(FILE *fp, int width, int first, int indent, const char *text)
{
	static const char spaces[] = "                                ";
	int n = (int)sizeof(spaces) - 1;

	if (first < 0)
		first = 0;
	if (indent < 0)
		indent = 0;
	wrap_text(fp, width, spaces + n - (first < n ? first : n), spaces + n - (indent < n ? indent : n),
		  text);
}

/* End of the word at p: the next space outside single or double quotes. */
static const char *
word_end(const char *p)
{
	char q = 0;

	for (; *p; p++) {
		if (q) {
			if (*p == q)
				q = 0;
		} else if (*p == '\'' || *p == '"') {
			q = *p;
		} else if (*p == ' ') {
			break;
		}
	}
	return p;
}

void
wrap_command(FILE *fp, int width, const char *indent, const char *cont, const char *line)
{
	int wind = width_of(indent, strlen(indent)), wcont = width_of(cont, strlen(cont));
	int col, first = 1;
	const char *p = line;

	if (width < 20)
		width = 80;
	if (wind + width_of(line, strlen(line)) <= width) {
		fprintf(fp, "%s%s\n", indent, line);
		return;
	}
	fputs(indent, fp);
	col = wind;
	while (*p) {
		const char *e = word_end(p);
		int len = width_of(p, (size_t)(e - p));
		const char *next = e;

		while (*next == ' ')
			next++;
		/* the last word needs no room for the continuation mark */
		if (!first && col + 1 + len + (*next ? wcont : 0) > width) {
			fprintf(fp, "%s\n%s    ", cont, indent);
			col = wind + 4;
		} else if (!first) {
			fputc(' ', fp);
			col++;
		}
		fwrite(p, 1, (size_t)(e - p), fp);
		col += len;
		first = 0;
		p = next;
	}
	fputc('\n', fp);
}

/* The programs a fix's command lines start with. */
static const char *const command_words[] = {
	"akmods", "apt", "apt-get", "bash", "cat", "chmod", "cmake", "colmap", "conda", "cp",
	"curl", "df", "dkms", "dmesg", "dnf", "docker", "dpkg", "dracut", "echo", "export",
	"ffmpeg", "free", "fuser", "getent", "gpudoctor", "gpustat", "grep", "hashcat", "head",
	"ip", "kill", "kubectl", "ldconfig", "ldd", "ln", "ls", "lsmod", "lspci", "mkinitcpio",
	"modinfo", "modprobe", "mokutil", "mv", "newgrp", "nproc", "nvcc", "nvidia-ctk",
	"nvidia-modprobe", "nvidia-persistenced", "nvidia-smi", "nvidia-smi.exe", "ollama",
	"pacman", "pip", "pip3", "powershell", "printf", "ps", "ptxas", "python", "python3",
	"reboot", "rm", "rmmod", "rpm", "sacct", "scontrol", "sed", "set", "sh", "slurmd",
	"split", "sudo", "systemctl", "tail", "tee", "trtexec", "ubuntu-drivers", "ulimit",
	"uname", "unset", "update-initramfs", "update-secureboot-policy", "usermod", "which",
	"wsl", "yolo", "yum", "zypper", NULL,
};

bool
wrap_is_command(const char *line)
{
	size_t n;
	int i;

	/* a blank, a comment, a prompt, or a comment after the command: the
	 * knowledge base writes "command   # what it shows" */
	if (line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '$' || strstr(line, "   # "))
		return true;
	if (!strncmp(line, "sudo ", 5))
		line += 5;
	n = strcspn(line, " ");
	/* a program named by its path: an environment's own bin/python3 */
	if (line[0] == '/' || !strncmp(line, "./", 2)) {
		const char *base = line;
		for (size_t k = 0; k < n; k++)
			if (line[k] == '/')
				base = line + k + 1;
		n -= (size_t)(base - line);
		line = base;
	}
	for (i = 0; command_words[i]; i++)
		if (strlen(command_words[i]) == n && !strncmp(line, command_words[i], n))
			return true;
	return false;
}

/* Where the rest of a long report line hangs: after "  label  " (two or
 * more blanks after the first word), "  1. ", "  -> ", "  - "; else two
 * columns in from the leading blanks. */
static size_t
hang_column(const char *s, size_t n)
{
	size_t lead = strspn(s, " "), w, gap;

	if (lead >= n)
		return 0;
	w = strcspn(s + lead, " ");
	if (lead + w >= n)
		return lead + 2 < n ? lead + 2 : 0;
	gap = strspn(s + lead + w, " ");
	if (gap >= 2 || (w <= 3 && (s[lead + w - 1] == '.' || !strncmp(s + lead, "->", w) ||
				    !strncmp(s + lead, "-", w))))
		return lead + w + gap;
	return lead + 2;
}

void
wrap_fit(FILE *fp, int width, const char *text)
{
	static const char spaces[] = "                                        ";
	const char *p = text;

	if (width < 20)
		width = 80;
	while (p && *p) {
		size_t n = strcspn(p, "\n"), col;

		if (width_of(p, n) <= width) {
			fwrite(p, 1, n, fp);
			fputc('\n', fp);
		} else {
			char head[sizeof(spaces)], *rest;

			size_t i, w, maxw = 0, hang;

			col = hang_column(p, n);
			if (col >= sizeof(head) || col > (size_t)width / 2)
				col = 4;
			/* the longest word (a URL) decides how far in the rest hangs */
			for (i = col; i < n; i += w + 1) {
				w = strcspn(p + i, " \n");
				if (i + w > n)
					w = n - i;
				if ((size_t)width_of(p + i, w) > maxw)
					maxw = (size_t)width_of(p + i, w);
			}
			hang = col;
			if (hang + maxw > (size_t)width)
				hang = maxw + 4 <= (size_t)width ? (size_t)width - maxw : 4;
			if (hang > col)
				hang = col;
			memcpy(head, p, col);
			head[col] = '\0';
			rest = strndup(p + col, n - col);
			if (rest) {
				/* "...: gpudoctor plan x --os y" keeps the command whole */
				char *cmd = strstr(rest, ": ");
				if (cmd && wrap_is_command(cmd + 2) &&
				    (size_t)width_of(cmd + 2, strlen(cmd + 2)) + hang <= (size_t)width)
					for (cmd += 2; *cmd; cmd++)
						if (*cmd == ' ')
							*cmd = NBSP;
				wrap_text(fp, width, head, spaces + sizeof(spaces) - 1 - hang, rest);
				free(rest);
			}
		}
		p += n;
		if (*p == '\n')
			p++;
	}
}
