// SPDX-License-Identifier: MIT
// pith verify --online without a network: the number a PDF carries (pith_data::carried_number), the
// registry's answer (registry::ask, from a cache) and the judgement it adds to a report
// (verify::add_registry_answer). The 404 answer is tested against a local server in tests/registry/.
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/findings.hpp"
#include "pith_data/pith_data.hpp"
#include "registry/registry.hpp"
#include "verify/verify.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

using namespace pith;
namespace fs = std::filesystem;

namespace {

bool listed(const std::vector<Finding>& section, Code code) {
    return std::any_of(section.begin(), section.end(), [&](const Finding& f) { return f.code == code; });
}

verify::Report report_in(verify::State state) {
    verify::Report r;
    r.state = state;
    return r;
}

}  // namespace

TEST_CASE("online: every finding code a receipt's status gives is receipt.STATUS") {
    for (ReceiptStatus s : {ReceiptStatus::Valid, ReceiptStatus::Invalid, ReceiptStatus::KeyUnknown, ReceiptStatus::KeyRevoked,
                            ReceiptStatus::KeyOutsideValidity, ReceiptStatus::Malformed, ReceiptStatus::Absent})
        CHECK(std::string(receipt_code(s).c_str()) == std::string("receipt.") + to_string(s));
}

TEST_CASE("online: the registry's answer judged") {
    using verify::State;
    // Known: a success; the state is what the checks against its record made it.
    for (State s : {State::Trusted, State::Unverified, State::Invalid, State::Absent}) {
        verify::Report r = report_in(s);
        verify::add_registry_answer(r, finding::registry_known, "serves it");
        CHECK(r.state == s);
        CHECK((listed(r.findings.success, finding::registry_known) && r.findings.failure.empty() && r.findings.informational.empty()));
    }
    // Unknown (404): a failure, and the file is invalid whatever it was.
    for (State s : {State::Trusted, State::Unverified, State::Absent}) {
        verify::Report r = report_in(s);
        verify::add_registry_answer(r, finding::registry_unknown, "404");
        CHECK(r.state == State::Invalid);
        CHECK(listed(r.findings.failure, finding::registry_unknown));
    }
    // Refused or unreachable: the check is not made, so a trusted file is only unverified, and
    // says why; a file that was not trusted stays as it was.
    for (Code code : {finding::registry_refused, finding::registry_unreachable}) {
        verify::Report r = report_in(State::Trusted);
        verify::add_registry_answer(r, code, "no answer");
        CHECK(r.state == State::Unverified);
        CHECK((listed(r.findings.informational, code) && listed(r.findings.informational, finding::pith_evidence_missing)));
        CHECK(r.findings.failure.empty());
        for (State s : {State::Unverified, State::Invalid, State::Absent}) {
            verify::Report other = report_in(s);
            verify::add_registry_answer(other, code, "no answer");
            CHECK(other.state == s);
            CHECK((listed(other.findings.informational, code) && !listed(other.findings.informational, finding::pith_evidence_missing)));
        }
    }
}

TEST_CASE("online: what the registry answers, from its cache") {
    std::string t = (fs::temp_directory_path() / "pith-online-XXXXXX").string();
    const fs::path dir = ::mkdtemp(t.data());
    registry::Options o;
    o.registry = "http://127.0.0.1:9";  // a closed port: a test that reached for the network would fail there
    o.cache_dir = dir.string();
    o.offline = true;
    auto options = [&] { return o; };

    registry::Answer a = registry::ask("pith:2025:23QNCODH577IUWDFZU4YX4M5NI", options);
    CHECK((a.code == finding::registry_unreachable && !a.record));
    CHECK_THAT(a.why, Catch::Contains("not in the cache"));
    CHECK(registry::ask("pith:ABC", options).code == finding::registry_unreachable);  // no query: no answer
    CHECK(registry::ask("pith:23QNCODH", [] () -> registry::Options { throw Error("bad --registry", err::options_invalid); }).code ==
          finding::registry_unreachable);

    const std::string vectors = std::string(PITH_SOURCE_DIR) + "/tests/vectors/";
    fs::create_directories(dir / "records");
    write_file_atomically((dir / "records" / "23QNCODH577IUWDFZU4YX4M5NI.json").string(), {read_file_or_stdin(vectors + "seed-000-pith_number_record.json")});
    a = registry::ask("pith:23QNCODH", options);
    CHECK(a.code == finding::registry_known);
    REQUIRE(a.record);
    CHECK(a.record->number.full() == "pith:2025:23QNCODH577IUWDFZU4YX4M5NI");
    CHECK(a.why == "the registry http://127.0.0.1:9 serves pith:23QNCODH (cached copy)");

    // Another record under the number's name: the answer does not check.
    write_file_atomically((dir / "records" / "23QNCODH577IUWDFZU4YX4M5NI.json").string(), {read_file_or_stdin(vectors + "seed-004-pith_number_record.json")});
    a = registry::ask("pith:2025:23QNCODH577IUWDFZU4YX4M5NI", options);
    CHECK((a.code == finding::registry_refused && !a.record));
    fs::remove_all(dir);
}

TEST_CASE("online: the number a PDF carries, as a registry query") {
    pith_data::PithData e;
    CHECK(pith_data::carried_number(e).empty());
    e.links.push_back({});
    e.links.back().uri = "https://example.org/paper";  // names no number
    e.links.push_back({});
    e.links.back().uri = "https://pith.science/pith/yrunqitd";
    CHECK(pith_data::carried_number(e) == "pith:YRUNQITD");  // a prefix: the short alias
    e.links.front().uri = "https://pith.science/pith/YRUNQITD2RKQXO2YH7SDTYYAQ3";
    CHECK(pith_data::carried_number(e) == "YRUNQITD2RKQXO2YH7SDTYYAQ3");  // whole, the first link's
    e.info["PithNumber"] = "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3";  // the metadata comes first
    CHECK(pith_data::carried_number(e) == "pith:2024:YRUNQITD2RKQXO2YH7SDTYYAQ3");
}
