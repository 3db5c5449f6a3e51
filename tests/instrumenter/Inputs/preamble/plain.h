// A header of the project without OpenMP: it may be precompiled.
#ifndef PLAIN_H
#define PLAIN_H
inline int plain_offset() { return 0; }
#endif
