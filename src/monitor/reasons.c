/*
 * reasons.c - NVML's clock-event (throttle) reason bits by name. Idle,
 * application clocks set by the user and display clocks are normal and
 * left out of what is reported (the practice of NVIDIA's own health
 * checks); the names are nvidia-smi's ("Clocks Event Reasons").
 */
#include "monitor/monitor.h"
#include "base/str.h"

#include <string.h>

static const char *const names[] = {
	"idle",                 /* 0x1 */
	"application clocks",   /* 0x2 */
	"SW power cap",         /* 0x4 */
	"HW slowdown",          /* 0x8 */
	"sync boost",           /* 0x10 */
	"SW thermal slowdown",  /* 0x20 */
	"HW thermal slowdown",  /* 0x40 */
	"HW power brake",       /* 0x80 */
	"display clocks",       /* 0x100 */
};

const char *
mon_reason_name(int bit)
{
	return bit >= 0 && bit < (int)(sizeof(names) / sizeof(names[0])) ? names[bit] : NULL;
}

void
mon_reasons_text(int64_t bits, char *out, size_t size)
{
	size_t len = 0;
	int b;

	out[0] = '\0';
	if (bits == MON_NA)
		return;
	for (b = 0; b < 9; b++) {
		if (!((unsigned long long)bits & MON_REASONS_REPORTED & (1ULL << b)))
			continue;
		str_fmt(out + len, size - len, "%s%s", len ? ", " : "", names[b]);
		len = strlen(out);
	}
}
