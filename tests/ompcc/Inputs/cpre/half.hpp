#ifndef HALF_HPP
#define HALF_HPP
// Warns when instantiated (division by zero): after the preamble, in this header.
template <class T> T broken_half(T x) { return x / 0; }
#endif
