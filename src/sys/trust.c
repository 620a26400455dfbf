/*
 * trust.c - whether a file is controlled only by root and one user
 * (trust.h).
 */
#include "sys/trust.h"
#include "base/str.h"

#include <limits.h>
#include <string.h>

bool
trust_others_can_write(const struct stat *st)
{
	return (st->st_mode & (S_IWGRP | S_IWOTH)) && !(S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX));
}

bool
trust_path(const char *real, uid_t owner, char *why, size_t size)
{
	char dir[PATH_MAX], *slash;
	struct stat st;

	if (stat(real, &st) < 0) {
		str_fmt(why, size, "cannot read %s", real);
		return false;
	}
	if (st.st_uid != 0 && st.st_uid != owner) {
		str_fmt(why, size, "%s belongs to uid %u, not to uid %u or root", real,
			(unsigned)st.st_uid, (unsigned)owner);
		return false;
	}
	if (trust_others_can_write(&st)) {
		str_fmt(why, size, "%s can be changed by other users (mode %04o)", real,
			(unsigned)(st.st_mode & 07777));
		return false;
	}
	if (strlen(real) >= sizeof(dir)) {
		str_fmt(why, size, "%s: path too long", real);
		return false;
	}
	str_copy(dir, sizeof(dir), real);
	while ((slash = strrchr(dir, '/')) != NULL) {
		*slash = '\0';
		if (stat(dir[0] ? dir : "/", &st) < 0) {
			str_fmt(why, size, "cannot read %s", dir[0] ? dir : "/");
			return false;
		}
		if (trust_others_can_write(&st) || (st.st_uid != 0 && st.st_uid != owner)) {
			str_fmt(why, size, "%s is in %s, which %s", real, dir[0] ? dir : "/",
				trust_others_can_write(&st) ? "other users can write" : "another user owns");
			return false;
		}
		if (!dir[0])
			break;
	}
	return true;
}
