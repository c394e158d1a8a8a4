int main(void) { for (;;) __asm__ volatile(""); }
