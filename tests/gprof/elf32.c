/* A 32-bit executable with no C library: only its symbols matter (the
 * test writes the gmon.out by hand), so it is never run. */
int leaf(int n) { return n * 3; }
int mid(int n) { return leaf(n) + leaf(n + 1); }
int top(void) { return mid(1) + leaf(2); }
void _start(void) { top(); for (;;) ; }
