//===- adapters/fortran/FortranBindings.h - Fortran argument passing ------===//
///
/// \file
/// What the Fortran entry points of libpomp (FortranBindings.cpp) share with
/// their unit tests: the hidden length of a CHARACTER*(*) argument and the
/// CTC string handed on to the C routines.
///
//===----------------------------------------------------------------------===//

#ifndef POMP_RUNTIME_ADAPTERS_FORTRAN_FORTRANBINDINGS_H
#define POMP_RUNTIME_ADAPTERS_FORTRAN_FORTRANBINDINGS_H

#include "pomplib.h"

#include <cstddef>
#include <string>

namespace pomp::fortran {

/// The hidden length gfortran (since 8) and flang append for each
/// CHARACTER*(*) argument, after all other arguments: a size_t.
using Length = std::size_t;

/// The length of a Fortran string without its trailing blanks: a CTC string
/// stored in a longer CHARACTER variable is padded with blanks, which are not
/// part of it.
std::size_t trimmedLength(const char *Text, Length Size);

/// A Fortran CTC string (no terminating NUL; Size bytes, of which the library
/// reads no more) as the C routines take it: NULL where the handle is already
/// bound, since a C routine reads its CTC string only to bind a zero handle;
/// otherwise a NUL-terminated copy without the trailing blanks.
class CtcString {
public:
  CtcString(const POMP_Handle_t *Handle, const char *Text, Length Size);
  CtcString(const CtcString &) = delete;
  CtcString &operator=(const CtcString &) = delete;

  const char *get() const { return Pointer; }

private:
  /// Most CTC strings are shorter: no allocation for them.
  static constexpr std::size_t InlineCapacity = 256;
  char Inline[InlineCapacity];
  std::string Heap;
  const char *Pointer = nullptr;
};

/// The lock id of a Fortran lock variable, passed by reference: its address,
/// as for C's omp_lock_t.
inline POMP_Lock_id_t lockId(const void *Lock) { return reinterpret_cast<POMP_Lock_id_t>(Lock); }

/// Copies a C string into a Fortran CHARACTER variable of Size bytes: cut
/// at Size, padded with blanks.
void copyToFortran(const char *Text, char *Out, Length Size);

/// The number of event entry points generated from pomp_events.def.
int eventEntryCount();

} // namespace pomp::fortran

#endif // POMP_RUNTIME_ADAPTERS_FORTRAN_FORTRANBINDINGS_H
