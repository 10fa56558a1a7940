#pragma once
#include <stdexcept>
#include <string>

namespace pith {

// Every failure pith reports to a user: one line, naming the input and the problem.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace pith
