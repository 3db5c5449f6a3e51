//===- core/FortranNames.h - Fortran symbol names for people ---*- C++ -*-===//
///
/// \file
/// The Fortran compilers' symbol names read back as Fortran names, for the
/// regions only the runtime saw (OMPT) in a Fortran program (docs/FORTRAN.md):
///
///   flang     _QQmain              main program
///             _QMmodPsub           mod::sub
///             _QFouterPinner       outer::inner
///             _QMmodSsubmFprocPf   mod::subm::proc::f
///             _QMmodPsub..omp_par  mod::sub  (a region outlined by OpenMP)
///   gfortran  MAIN__               main program
///             __mod_MOD_sub        mod::sub
///             __mod_MOD_sub._omp_fn.0   mod::sub
///
/// flang's names follow its bijective uniquing (flang's InternalNames.h,
/// NameUniquer::deconstruct): after `_Q`, scopes from the outermost in, `M`
/// module, `S` submodule, `F` host procedure, `B<n>` block construct, then
/// the entity, `P` procedure, `E`/`EC` variable or constant, `C` common
/// block, `N` namelist group, `T` derived type with `K<n>`/`KN<n>` kind
/// parameters, `DT` dispatch table, `Y`/`YI` type descriptors; `_QQ` starts a
/// compiler generated name, of which `_QQmain` is the main program (flang 19
/// keeps no trace of the program's own name in the object or its DWARF).
/// Names are lower case letters, digits, `_` and `$`.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_FORTRANNAMES_H
#define POMP_RUNTIME_CORE_FORTRANNAMES_H

#include <string>
#include <string_view>

namespace pomp::rt {

/// What the profile calls a Fortran main program whose name is not known.
inline constexpr std::string_view MainProgramName = "main program";

/// The Fortran name of Symbol (a flang or gfortran symbol, or either with
/// the suffix of a region OpenMP outlined), or "" when Symbol is not such a
/// name, or not one this reader understands completely: then the caller
/// keeps the symbol as it is.
std::string demangleFortran(std::string_view Symbol);

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_FORTRANNAMES_H
