#pragma once
#include <stdexcept>
#include <string>

namespace pith {

// Every failure pith reports to a user: one line, naming the input and the problem, and where
// it is known a stable code for machines (`pith batch` reports, --json), such as
// "stamp.title_not_shown". Errors without a code are classified by the batch report.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message, std::string code = {}) : std::runtime_error(message), code_(std::move(code)) {}
    const std::string& code() const { return code_; }

private:
    std::string code_;
};

}  // namespace pith
