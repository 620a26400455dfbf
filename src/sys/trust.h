/*
 * trust.h - whether a file is controlled only by root and one user: the
 * test gpudoctor makes before it runs or loads a file it found (an
 * interpreter for --deep, a CUDA library for its version call), so that
 * nobody else's code runs as the person who runs gpudoctor.
 */
#ifndef GPUDOCTOR_TRUST_H
#define GPUDOCTOR_TRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Group- or world-writable, and not a sticky directory. */
bool trust_others_can_write(const struct stat *st);

/* Whether only root and user owner can change the file at real (a path
 * with no symbolic links, such as realpath gives): the file and every
 * directory above it belong to root or owner, and nobody else can write
 * them. false with the reason in why ("... belongs to uid 1001", "... is
 * in /opt/x, which other users can write"). */
bool trust_path(const char *real, uid_t owner, char *why, size_t size);

#endif
