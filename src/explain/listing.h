/*
 * listing.h - the source an IPython or Jupyter traceback quotes. Each of
 * its frames names a file and function, then lists numbered lines of code
 * around the call ("    168   # This function throws if there's a driver
 * initialization error", "--> 170   torch._C._cuda_init()"): code and its
 * comments, not output, so no message is read from them.
 */
#ifndef GPUDOCTOR_EXPLAIN_LISTING_H
#define GPUDOCTOR_EXPLAIN_LISTING_H

#include <stdbool.h>
#include <stddef.h>

struct listing {
	bool in_frame;    /* the lines since a frame's heading were its listing */
};

/* Whether line s (len bytes) is a numbered line of a frame's listing;
 * the state follows the frames from line to line. */
bool listing_line(struct listing *st, const unsigned char *s, size_t len);

#endif
