/* PLACEHOLDER - replaced by the real module. */
#include "kb/kb.h"
