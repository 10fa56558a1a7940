// SPDX-License-Identifier: MIT
#pragma once
// The one judgement of the record's title on the paper's title page. pith verify reports it as
// its pith.title.* findings; pith stamp refuses a record it does not confirm. Both call it and
// nothing else of the title rules, so what stamp accepts without --no-title-check, verify's title
// check calls trusted (code_title_judgement checks that no other module reaches those rules).
//
// Two readings, one after the other: the text layer of the title block's page
// (title::title_block()), then, only where that finds the title set as the title, the pixels of
// the title block (pixels::judge()), read in a child the caller may have started early.
#include "core/findings.hpp"
#include "page/pixels.hpp"
#include "page/title.hpp"
#include "page/visible.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace pith::page::title {

// The file the judgement reads: its pages' words as pith verify reads them, and its bytes, whose
// pages before a title block after front matter it renders itself (pixels::not_front_matter()).
struct Pages {
    std::function<visible::Reading(int)> words;  // page i (0-based) as poppler lays it out (visible::Look::Rendered)
    std::string_view pdf;
    std::string password;
    int count = 0;
};

// The text layer's judgement; its finding (pith.title.*) is added to the findings given.
struct TextJudgement {
    TitleBlock block;                    // the title block's page and what it shows
    pixels::TitleWords words;            // where the title is set as the title: its words
    std::optional<pixels::Request> ask;  // then: the reading from pixels that can confirm it
};
// `plain`: the record's title (counted only when it hashes to `hash`, its title_canon_sha256).
TextJudgement judge_text(const std::string& plain, const std::string& hash, const Pages& pages, Findings& f);

// The pixels' judgement of the title the text layer found (`words`, from judge_text()); its
// finding (pith.title.pixels.*) is added to the findings given.
pixels::Judgement judge_pixels(const pixels::TitleWords& words, pixels::Reading reading, Findings& f);

// The two findings verify's `trusted` needs of the title: the text layer shows it set as the
// title, and the pixels show the same words there.
bool confirmed(const Findings& f);

}  // namespace pith::page::title
