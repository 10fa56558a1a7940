// SPDX-License-Identifier: MIT
#pragma once
// The work one input file may ask of pith (doc/limits.md): decoded stream bytes, in all
// and per stream, values parsed, revisions and the form draws of a page poppler renders. Every
// decode and parse of the file draws from one Budget; past a limit the file is refused with
// pdf.too_large, never read for gigabytes or hours (nesting past `depth` is damage instead: the
// parser stops there). The defaults fit any real paper; PITH_LIMITS or `pith --limits` raise them.
#include "core/error.hpp"

#include <podofo/podofo.h>

#include <cstddef>
#include <new>
#include <string>

namespace pith::pdf {

struct Limits {
    std::size_t decoded = std::size_t(256) << 20;  // bytes decoded from all the file's streams together
    std::size_t stream = std::size_t(128) << 20;   // bytes decoded from one stream
    std::size_t values = 2000000;                  // values parsed (numbers, names, array items, ...)
    int depth = 256;                               // arrays and dictionaries nested in one object (deeper: damaged)
    std::size_t revisions = 10000;                 // cross-reference sections (one or two per revision)
    std::size_t forms = 100000;                    // Form XObjects a page draws, counting each draw

    // "decoded=512M,stream=256M,values=8000000,depth=512,revisions=20000,forms=1000000" (any subset; sizes
    // take K, M or G); throws pith::Error naming what it does not understand.
    static Limits parse(const std::string& spec);
    // The limits in force: PITH_LIMITS when set (read once), else the defaults.
    static const Limits& current();
    static void set_current(const Limits& limits);
    std::string describe() const;  // the spec of these limits, for messages and --help
};

class Budget {
public:
    explicit Budget(const Limits& limits = Limits::current()) : limits_(limits) {}
    Budget(const Budget&) = delete;
    Budget& operator=(const Budget&) = delete;

    const Limits& limits() const { return limits_; }
    // Each throws TooLarge past its limit, and from then on every charge does too: the budget
    // stays spent, so a reader that reads around one failure cannot start the work again.
    void decoded(std::size_t more) {
        if (spent_ || (decoded_ += more) > limits_.decoded) overrun("decoded streams exceed " + mib(limits_.decoded), "decoded");
    }
    void stream(std::size_t size) {
        if (spent_ || size > limits_.stream) overrun("a stream decodes to more than " + mib(limits_.stream), "stream");
    }
    void value() {
        if (spent_ || ++values_ > limits_.values)
            overrun("more than " + std::to_string(limits_.values) + " values to parse", "values");
    }
    void values(std::size_t n) {
        if (spent_ || (values_ += n) > limits_.values)
            overrun("more than " + std::to_string(limits_.values) + " values to parse", "values");
    }
    void form_draws(std::size_t n) {
        if (spent_ || n > limits_.forms)
            overrun("a page draws Form XObjects more than " + std::to_string(limits_.forms) + " times", "forms");
    }
    void revisions(std::size_t n) {
        if (spent_ || n > limits_.revisions)
            overrun("more than " + std::to_string(limits_.revisions) + " cross-reference sections", "revisions");
    }
    bool spent() const { return spent_; }
    const std::string& why() const { return why_; }
    std::size_t decoded_total() const { return decoded_; }

    // The budget every File opened on this thread draws from while the scope lives (one input
    // file's work: its File, earlier revisions of it, ...); nullptr outside any scope, where each
    // File has a budget of its own.
    class Scope {
    public:
        explicit Scope(Budget& budget);
        ~Scope();
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        Budget* outer_;
    };
    static Budget* active();

private:
    [[noreturn]] void overrun(const std::string& what, const char* key);
    static std::string mib(std::size_t bytes) {  // a limit of 1K is "1 KiB", not "0 MiB"
        return bytes >= (1u << 20) ? std::to_string(bytes >> 20) + " MiB" : bytes >= 1024 ? std::to_string(bytes >> 10) + " KiB" : std::to_string(bytes) + " bytes";
    }

    Limits limits_;
    std::size_t decoded_ = 0, values_ = 0;
    bool spent_ = false;
    std::string why_;
};

// A file asked for more than its budget, or for more memory than there is (pdf.too_large).
class TooLarge : public Error {
public:
    explicit TooLarge(const std::string& message) : Error(message, err::pdf_too_large) {}
};

// PoDoFo's name of an error ("ePdfError_InvalidDataType") in words ("invalid data type").
std::string podofo_words(const PoDoFo::PdfError& e);

// The one boundary between the libraries pith uses and its errors: runs `work` (everything pith
// does with the input file `file`) under a fresh budget, and turns whatever it throws into one
// pith::Error for that file, with a code and words for people (the words do not repeat the code):
// TooLarge ("FILE: ...") for an overrun -- also one some reader caught and read around -- or
// std::bad_alloc; pdf.password
// or pdf.syntax for PoDoFo's exceptions (which do not derive from std::exception); internal.error
// for anything else (nlohmann::json, std::system_error, ...). pith::Errors pass unchanged.
// `refuse_read_around`: false for work that has written its output when it returns (stamp):
// an overrun some reader read around is then the damage that reader recorded, not an error.
template <class Work>
auto within_budget(const std::string& file, Work&& work, bool refuse_read_around = true) -> decltype(work()) {
    Budget budget;
    auto named = [&](const std::string& what) { return what.rfind(file + ": ", 0) == 0 ? what : file + ": " + what; };
    try {
        Budget::Scope scope(budget);
        auto result = work();
        if (budget.spent() && refuse_read_around) throw TooLarge(named(budget.why()));
        return result;
    } catch (const TooLarge& e) {
        throw TooLarge(named(e.what()));
    } catch (const std::bad_alloc&) {
        throw TooLarge(named("out of memory reading the file (doc/limits.md)"));
    } catch (const PoDoFo::PdfError& e) {
        if (budget.spent()) throw TooLarge(named(budget.why()));
        if (e.GetError() == PoDoFo::ePdfError_InvalidPassword)
            throw Error(named("wrong password for encrypted PDF (check --password)"), err::pdf_password);
        throw Error(named("cannot read the PDF (" + podofo_words(e) + ")"), err::pdf_syntax);
    } catch (const Error&) {
        if (budget.spent()) throw TooLarge(named(budget.why()));
        throw;
    } catch (const std::exception& e) {
        throw Error(named(std::string("internal error: ") + e.what()), err::internal_error);
    }
}

}  // namespace pith::pdf
