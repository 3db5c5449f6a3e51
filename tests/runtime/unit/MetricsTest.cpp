//===- MetricsTest.cpp - POMP_METRICS values ------------------------------===//

#include "core/Metrics.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace pomp::rt;

namespace {

std::vector<std::string> parse(const std::string &Value, std::string &Error) {
  std::vector<std::string> Names;
  if (!parseMetricList(Value, Names, Error))
    return {"<invalid>"};
  return Names;
}

TEST(MetricsTest, NamesAreSplitAtCommasWithoutWhiteSpace) {
  std::string Error;
  EXPECT_EQ(parse("PAPI_TOT_CYC", Error), std::vector<std::string>{"PAPI_TOT_CYC"});
  EXPECT_EQ(parse(" perf::PAGE-FAULTS ,\tPAPI_L2_TCM", Error),
            (std::vector<std::string>{"perf::PAGE-FAULTS", "PAPI_L2_TCM"}));
}

TEST(MetricsTest, MalformedListsAreRejectedWithTheReason) {
  std::string Error;
  EXPECT_EQ(parse("A,,B", Error), std::vector<std::string>{"<invalid>"});
  EXPECT_EQ(Error, "an empty event name");
  EXPECT_EQ(parse("A,", Error), std::vector<std::string>{"<invalid>"});
  EXPECT_EQ(parse("A B", Error), std::vector<std::string>{"<invalid>"});
  EXPECT_NE(Error.find("\"A B\""), std::string::npos);
  EXPECT_EQ(parse("A,A", Error), std::vector<std::string>{"<invalid>"});
  EXPECT_NE(Error.find("twice"), std::string::npos);
  std::string Many;
  for (std::size_t I = 0; I <= MaxMetrics; ++I)
    Many += (I ? ",E" : "E") + std::to_string(I);
  EXPECT_EQ(parse(Many, Error), std::vector<std::string>{"<invalid>"});
}

TEST(MetricsTest, UnsetMeansNoCountersAndNoMessage) {
  const OptionSource Options(std::vector<std::string>{});
  std::vector<std::string> Messages;
  EXPECT_FALSE(initializeMetrics(Options, Messages));
  EXPECT_TRUE(Messages.empty());
  EXPECT_TRUE(metricsReport().Requested.empty());
  EXPECT_EQ(newThreadCounters(), nullptr);
}

TEST(MetricsTest, AnInvalidValueIsOneMessageAndNothingRequested) {
  const OptionSource Options(std::vector<std::string>{"POMP_METRICS=A,,B"});
  std::vector<std::string> Messages;
  EXPECT_FALSE(initializeMetrics(Options, Messages));
  ASSERT_EQ(Messages.size(), 1u);
  EXPECT_EQ(Messages[0].rfind("invalid value of POMP_METRICS: an empty event name;", 0), 0u);
  EXPECT_TRUE(metricsReport().Requested.empty());
}

} // namespace
