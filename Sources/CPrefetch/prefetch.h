// A hint to the processor that `address` will soon be read, which Swift has
// no spelling for. Inlined where it is called (Swift imports a static inline
// function's body): one instruction, no call. It never faults, whatever the
// address.
static inline void axhit_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
