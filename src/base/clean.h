/*
 * clean.h - text from outside (a log line, a path, an environment's folder
 * name, a host name, a device name, anything read from a facts file) made
 * safe to print on a terminal: escape sequences (CSI, OSC, ...) removed,
 * other control characters (carriage return and newline included) and C1
 * controls shown as '?', tabs as spaces, invalid UTF-8 as one '?' per byte,
 * trailing spaces dropped. Every renderer for people passes such text
 * through here, so a crafted name can neither rewrite the screen nor fake
 * a line of the report.
 */
#ifndef GPUDOCTOR_CLEAN_H
#define GPUDOCTOR_CLEAN_H

#include <stddef.h>

/* Clean s[0..len) into out[size], NUL-terminated, cut on a character
 * boundary at size-1 bytes. Returns the length written. Cleaning never
 * lengthens text, so out may be s itself. */
size_t text_clean(const unsigned char *s, size_t len, char *out, size_t size);
/* Clean the NUL-terminated string in s[size] in place. */
void text_clean_str(char *s, size_t size);
/* Clean each line of s in place, keeping the newlines between them (a
 * finding's fix: prose and commands, one per line). */
void text_clean_lines(char *s);

#endif
