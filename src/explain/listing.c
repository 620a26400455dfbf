/*
 * listing.c - the source an IPython or Jupyter traceback quotes: a frame's
 * heading in any of IPython's forms, then numbered lines (an arrow on the
 * current one) until a line of another kind.
 */
#include "explain/listing.h"

#include <string.h>

static bool
has(const unsigned char *s, size_t len, const char *word)
{
	return memmem(s, len, word, strlen(word)) != NULL;
}

static bool
digits_then_space(const unsigned char *s, size_t len, size_t i)
{
	size_t d = i;

	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	return i > d && i - d <= 6 && (i == len || s[i] == ' ' || s[i] == '\t');
}

/* "   168   code", "--> 170   code", "---> 9 code" */
static bool
numbered(const unsigned char *s, size_t len)
{
	size_t i = 0;

	if (len && s[0] == '-') {
		while (i < len && s[i] == '-')
			i++;
		if (i == len || s[i] != '>')
			return false;
		i++;
	}
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return digits_then_space(s, len, i);
}

/* "<ipython-input-9-f0f3...> in <module>()", "/path/x.py in fn(a)",
 * "File ~/x.py:170, in fn()", "Cell In[3], line 5",
 * "Input In [3], in <cell line: 1>()" */
static bool
heading(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	s += i;
	len -= i;
	if (len >= 5 && !memcmp(s, "File ", 5))
		return has(s, len, ", in ") && !has(s, len, "\", line ");
	if ((len >= 7 && !memcmp(s, "Cell In", 7)) || (len >= 8 && !memcmp(s, "Input In", 8)))
		return true;
	/* the old headings end with the call's parentheses: most lines stop here */
	if (!len || s[len - 1] != ')')
		return false;
	return has(s, len, "<ipython-input-") || has(s, len, ".py in ");
}

bool
listing_line(struct listing *st, const unsigned char *s, size_t len)
{
	size_t i;

	while (len && (s[len - 1] == '\r' || s[len - 1] == '\n'))
		len--;
	if (heading(s, len)) {
		st->in_frame = true;
		return false;
	}
	if (!st->in_frame)
		return false;
	for (i = 0; i < len && (s[i] == ' ' || s[i] == '\t'); i++)
		;
	if (i == len)
		return false;    /* blank lines part the frames */
	if (numbered(s, len))
		return true;
	st->in_frame = false;
	return false;
}
