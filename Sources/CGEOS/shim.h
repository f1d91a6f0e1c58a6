// Only the reentrant (_r) API: every call names the context that owns it.
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
