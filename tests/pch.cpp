// The translation unit that tests/CMakeLists.txt precompiles the tests' shared
// headers through (corank_test_pch); it has no code of its own.
