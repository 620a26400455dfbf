/*
 * redact.h - what a report pasted in public must not show: user names (in
 * home directories, shell prompts and as words), the host name, GPU and
 * other UUIDs, serial numbers and IP addresses. Each distinct value gets
 * one placeholder for the whole report (<user>, <user2>, <host>, <uuid-1>,
 * <ip-1>), so paths and repeated addresses stay readable and comparable.
 *
 * Dotted quads are IP addresses unless they are versions: a version the
 * facts name (cuDNN 9.19.0.56), or a quad written after a library or
 * version word or a pin (`cudnn 8.9.2.26`, `==8.9.2.26`).
 */
#ifndef GPUDOCTOR_REDACT_H
#define GPUDOCTOR_REDACT_H

#include "base/buf.h"

#include <stdbool.h>
#include <stddef.h>

struct redact;

/* on false: redact_apply copies its input unchanged. NULL when out of memory. */
struct redact *redact_new(bool on);
void redact_free(struct redact *r);

/* The machine's host name (with its short form before the first dot). */
void redact_host(struct redact *r, const char *hostname);
/* A user name known from the facts (a home directory, $USER). */
void redact_user(struct redact *r, const char *name);
/* A dotted version the facts name: never taken for an address. */
void redact_version(struct redact *r, const char *version);
/* Learn user names from a text (home directories, user@host prompts) before
 * anything is applied, so a name is hidden wherever it appears first. */
void redact_learn(struct redact *r, const char *text);

/* Append text to out with everything above replaced. */
void redact_apply(struct redact *r, const char *text, struct buf *out);
/* The same as a new string (the caller frees it); NULL when out of memory. */
char *redact_dup(struct redact *r, const char *text);

/* What was replaced: distinct user names, hosts, UUIDs, serials, addresses. */
struct redact_counts {
	int users, hosts, uuids, serials, ips;
};
void redact_counts(const struct redact *r, struct redact_counts *c);

#endif
