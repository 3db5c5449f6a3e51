//===- FortranNamesTest.cpp - flang's and gfortran's names read back ------===//
///
/// \file
/// demangleFortran() over the whole of flang's uniquing grammar (flang 19,
/// InternalNames.h) and gfortran's module and main program names, with the
/// suffixes of regions OpenMP outlines; names it must leave alone stay "".
///
//===----------------------------------------------------------------------===//

#include "core/FortranNames.h"

#include <gtest/gtest.h>

namespace pomp::rt {
namespace {

TEST(FortranNamesTest, FlangMainProgram) {
  EXPECT_EQ(demangleFortran("_QQmain"), "main program");
  EXPECT_EQ(demangleFortran("_QQmain..omp_par"), "main program");
  EXPECT_EQ(demangleFortran("_QQmain..omp_par.3"), "main program");
}

TEST(FortranNamesTest, FlangProcedures) {
  EXPECT_EQ(demangleFortran("_QPsub"), "sub");
  EXPECT_EQ(demangleFortran("_QMmodPsub"), "mod::sub");
  EXPECT_EQ(demangleFortran("_QFouterPinner"), "outer::inner");
  EXPECT_EQ(demangleFortran("_QMmodFouterPinner"), "mod::outer::inner");
  EXPECT_EQ(demangleFortran("_QMmodSs1modSs2modFsubPfun"), "mod::s1mod::s2mod::sub::fun");
  EXPECT_EQ(demangleFortran("_QMmodPsub..omp_par"), "mod::sub");
  EXPECT_EQ(demangleFortran("_QFouterPinner..omp_par.12"), "outer::inner");
  // Names with digits, underscores and `$`.
  EXPECT_EQ(demangleFortran("_QMmod_2Psub_x9"), "mod_2::sub_x9");
  EXPECT_EQ(demangleFortran("_QPa$b"), "a$b");
  // A block construct is a scope without a name.
  EXPECT_EQ(demangleFortran("_QFmainB2Pinner"), "main::inner");
}

TEST(FortranNamesTest, FlangOtherEntities) {
  EXPECT_EQ(demangleFortran("_QMmodEintvar"), "mod::intvar");
  EXPECT_EQ(demangleFortran("_QMmodECpi"), "mod::pi");
  EXPECT_EQ(demangleFortran("_QCvariables"), "variables");
  EXPECT_EQ(demangleFortran("_QMmodNgroup"), "mod::group");
  EXPECT_EQ(demangleFortran("_QMmymoduleTmytype"), "mymodule::mytype");
  EXPECT_EQ(demangleFortran("_QTyourtypeK4KN6"), "yourtype(4,-6)");
  EXPECT_EQ(demangleFortran("_QMmDTt"), "m::t");
  EXPECT_EQ(demangleFortran("_QMmYt"), "m::t");
  EXPECT_EQ(demangleFortran("_QYIinteger"), "integer");
}

TEST(FortranNamesTest, FlangNamesNotUnderstoodStayAsTheyAre) {
  EXPECT_EQ(demangleFortran("_Q"), "");
  EXPECT_EQ(demangleFortran("_QQcl.68656c6c6f"), "");
  EXPECT_EQ(demangleFortran("_QQro.2xi4.0"), "");
  EXPECT_EQ(demangleFortran("_QMmod"), "");           // no entity
  EXPECT_EQ(demangleFortran("_QPsubPother"), "");     // two entities
  EXPECT_EQ(demangleFortran("_QPsubMmod"), "");       // a scope after the entity
  EXPECT_EQ(demangleFortran("_QXfoo"), "");           // unknown code
  EXPECT_EQ(demangleFortran("_QPSub"), "");           // upper case is a code, S needs a name
  EXPECT_EQ(demangleFortran("_QDx"), "");             // D without T
  EXPECT_EQ(demangleFortran("_QPsub..omp_parx"), ""); // not the outlining suffix
  EXPECT_EQ(demangleFortran("_QKN"), "");
  EXPECT_EQ(demangleFortran("_QBx"), "");
}

TEST(FortranNamesTest, Gfortran) {
  EXPECT_EQ(demangleFortran("MAIN__"), "main program");
  EXPECT_EQ(demangleFortran("MAIN__._omp_fn.0"), "main program");
  EXPECT_EQ(demangleFortran("__mod_MOD_sub"), "mod::sub");
  EXPECT_EQ(demangleFortran("__jacobi_mod_MOD_relax._omp_fn.2"), "jacobi_mod::relax");
  // An internal or external procedure's outlined region: the procedure.
  EXPECT_EQ(demangleFortran("inner.0._omp_fn.1"), "inner.0");
  EXPECT_EQ(demangleFortran("outer_._omp_fn.0"), "outer_");
}

TEST(FortranNamesTest, OtherNamesStayAsTheyAre) {
  for (const char *Name :
       {"main", "compute", "__libc_start_main", "_start", "foo.constprop.0", "__mod_MOD_",
        "___MOD_x", "__MOD_x", "_ZN3fooEv", "MAIN", "", "pomp_init_", "_omp_fn.0"})
    EXPECT_EQ(demangleFortran(Name), "") << Name;
}

} // namespace
} // namespace pomp::rt
