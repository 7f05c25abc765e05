/* A function always inlined into its callers, so callgrind writes fi= lines. */
static inline __attribute__((always_inline)) unsigned checksum(unsigned x)
{
	unsigned sum = 0;
	for (int i = 0; i < 8; i++)
		sum += (x >> i) & 1u;
	return sum;
}
