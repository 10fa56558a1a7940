// SPDX-License-Identifier: MIT
#pragma once
// Results of checks as data (c2patool's model): success, informational and
// failure lists of {code, explanation}. Human output renders this, nothing else.
#include "core/finding_codes.hpp"
#include "core/json.hpp"
#include "core/keys.hpp"
#include "core/record.hpp"

#include <string>
#include <vector>

namespace pith {

struct Finding {
    Code code;                // one of finding:: (core/finding_codes.hpp): stable, dotted, record.hash.match
    std::string explanation;  // one plain sentence
};

// Where on a page a check looked, and what it made of it (`pith verify --picture` draws these,
// `--json` lists them): the same data the verdict was made from.
enum class RegionKind {
    Title,       // the record's title where the page shows it (or where it stands not set as one)
    Badge,       // the badge pith's update drew
    Link,        // a link over or under the badge
    Annotation,  // an annotation added or changed after the stamp
    Content,     // a page whose content changed after the stamp
    Hidden,      // words of the title block a reader cannot see
};
// As the findings the region stands for.
enum class RegionOutcome { Ok, Info, Fail };
const char* to_string(RegionKind kind);  // "title", "badge", "link", "annotation", "content", "hidden"
const char* to_string(RegionOutcome outcome);  // "ok", "info", "fail"

struct Region {
    int page = 0;                           // 1-based
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // PDF points, the page's default user space (as a link's /Rect)
    RegionKind kind = RegionKind::Title;
    RegionOutcome outcome = RegionOutcome::Info;
    std::string label;  // a few words for the picture
};

struct Findings {
    std::vector<Finding> success, informational, failure;
    std::vector<Region> regions;  // not in to_json(): a verify report lists them
    // A code is one of finding:: (core/finding_codes.hpp), never a string.
    void ok(Code code, std::string why) { success.push_back({code, std::move(why)}); }
    void info(Code code, std::string why) { informational.push_back({code, std::move(why)}); }
    void fail(Code code, std::string why) { failure.push_back({code, std::move(why)}); }
    Json to_json() const;  // {"success":[...],"informational":[...],"failure":[...]}
};

// receipt.valid, receipt.key_unknown, ...: the code of a receipt's status.
Code receipt_code(ReceiptStatus status);

// Several items of one explanation, "; " between them.
std::string joined(const std::vector<std::string>& items);

// Compares what a record states with what pith recomputes, and checks its receipt.
Findings check_record(const Record& record, const Keyring& keyring, ReceiptStatus* receipt_status = nullptr);

}  // namespace pith
