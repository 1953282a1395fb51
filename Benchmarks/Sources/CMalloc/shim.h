// Exposes glibc's allocator statistics (mallinfo2) to Swift.
#include <malloc.h>
