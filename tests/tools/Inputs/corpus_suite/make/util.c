int util_square(int n) { return n * n; }
