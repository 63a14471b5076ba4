#include "corank/text/json_members.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace corank::text {
namespace {

// name=value pairs in order, a string's value in quotes; "!" after the last
// where the object did not end well.
std::string members(std::string_view line) {
  JsonMembers m(line);
  std::string out;
  JsonMember x;
  while (m.next(x)) out += std::string(x.name) + "=" + (x.string ? "\"" : "") + std::string(x.value) + (x.string ? "\"" : "") + " ";
  return out;
}

TEST(JsonMembers, TopLevelMembersInOrder) {
  EXPECT_EQ(members(R"({"log":"a\n","stream":"stdout","time":"2026-11-25T11:15:01.123456789Z"})"),
            "log=\"a\\n\" stream=\"stdout\" time=\"2026-11-25T11:15:01.123456789Z\" ");
  EXPECT_EQ(members(R"(  { "ts" : 1795605301.5 , "ok":true,"n":null,"x":-1e3 }  )"), "ts=1795605301.5 ok=true n=null x=-1e3 ");
  EXPECT_EQ(members("{}"), "");
  // Nested values are skipped whole, strings in them with their brackets and quotes.
  EXPECT_EQ(members(R"({"a":{"time":"x","b":[1,"]}",{"c":"\"{"}]},"time":"t"})"),
            R"(a={"time":"x","b":[1,"]}",{"c":"\"{"}]} time="t" )");
  // Escaped quotes and backslashes inside strings.
  EXPECT_EQ(members(R"({"m":"say \"hi\" \\","t":"u"})"), R"(m="say \"hi\" \\" t="u" )");
}

TEST(JsonMembers, NotObjectsAndBrokenLines) {
  EXPECT_FALSE(JsonMembers("[1,2]").object());
  EXPECT_FALSE(JsonMembers("2026-11-25 x").object());
  EXPECT_TRUE(JsonMembers(" \t{").object());
  EXPECT_EQ(members("plain text"), "");
  // A line cut short (a log being written): the members before the cut.
  EXPECT_EQ(members(R"({"time":"2026","log":"half)"), "time=\"2026\" ");
  EXPECT_EQ(members(R"({"time":"2026","n":12)"), "time=\"2026\" ");
  EXPECT_EQ(members(R"({"a":{"b":1)"), "");
  // Malformed: nothing from the fault on.
  EXPECT_EQ(members(R"({"a":1 "b":2})"), "a=1 ");
  EXPECT_EQ(members(R"({"a" 1})"), "");
  EXPECT_EQ(members(R"({a:1})"), "");
  EXPECT_EQ(members(R"({"a":})"), "");
}

}  // namespace
}  // namespace corank::text
