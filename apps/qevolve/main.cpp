#include <cstdio>
int main() { std::puts("qevolve"); return 0; }
