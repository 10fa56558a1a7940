// SPDX-License-Identifier: MIT
#include "page/title_judgement.hpp"

#include <algorithm>
#include <utility>

namespace pith::page::title {

TextJudgement judge_text(const std::string& plain, const std::string& hash, const Pages& pages, Findings& f) {
    const auto front_matter = [&](int i, const visible::Page& page, double size, const std::vector<std::string>& shown) {
        return pixels::not_front_matter(pages.pdf, i, pages.password, page, size, shown);
    };
    TextJudgement out{title_block(plain, hash, pages.count, pages.words, front_matter), {}, std::nullopt};
    const OnPage& t = out.block.shown;
    if (out.block.reading.failed) {
        f.info(finding::pith_title_none, "the record's title could not be looked for: " + out.block.reading.why);
        return out;
    }
    switch (t.shown) {
        case Shown::AsTitle: f.ok(finding::pith_title_match, t.explanation); break;
        case Shown::NotAsTitle: f.fail(finding::pith_title_not_title, t.explanation); break;
        case Shown::Hidden: f.fail(finding::pith_title_hidden, t.explanation); break;
        case Shown::Differs: f.fail(finding::pith_title_differs, t.explanation); break;
        case Shown::Scanned:
        case Shown::Unknown: f.info(finding::pith_title_none, t.explanation); break;
    }
    if (t.shown == Shown::AsTitle && t.span && out.block.reading.page) {
        const visible::Page& page = *out.block.reading.page;
        out.words = pixels::title_words(page, *t.span, t.formula_words, t.formula_text, t.joined_words);
        const pixels::Region region = pixels::region_for(page, out.words.all());
        out.ask = pixels::Request{out.block.index, region, pixels::languages_for(out.words.read), out.words};
    }
    return out;
}

pixels::Judgement judge_pixels(const pixels::TitleWords& words, pixels::Reading reading, Findings& f) {
    pixels::Judgement j = pixels::judge(words, std::move(reading));
    switch (j.verdict) {
        case pixels::Verdict::Agrees: f.ok(finding::pith_title_pixels_match, j.explanation); break;
        case pixels::Verdict::Unverified: f.info(finding::pith_title_pixels_unverified, j.explanation); break;
        case pixels::Verdict::Differs: f.fail(finding::pith_title_pixels_differs, j.explanation); break;
        case pixels::Verdict::Faint: f.fail(finding::pith_title_pixels_faint, j.explanation); break;
        case pixels::Verdict::Outranked: f.fail(finding::pith_title_pixels_outranked, j.explanation); break;
    }
    return j;
}

bool confirmed(const Findings& f) {
    auto has = [&](Code code) {
        return std::any_of(f.success.begin(), f.success.end(), [&](const Finding& x) { return x.code == code; });
    };
    return has(finding::pith_title_match) && has(finding::pith_title_pixels_match);
}

}  // namespace pith::page::title
