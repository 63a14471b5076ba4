#include <cstdio>
#include "corank/version.hpp"
int main() { std::printf("corank %s\n", corank::version()); }
