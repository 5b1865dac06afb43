#pragma once

#include <stdexcept>

namespace cardhour::sim {

// A failed SQL statement, or a store that cannot be opened. Not an ApiError: the caller's
// request was fine, we were not (500).
class DbError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

} // namespace cardhour::sim
