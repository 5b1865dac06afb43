// Runs a fuzz target's LLVMFuzzerTestOneInput over every file of a corpus directory, then over
// a fixed number of pseudo-random mutations of them, so a plain (non-clang) test build keeps
// the corpus and simple mutations from regressing. A crash or sanitizer report fails the test.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    std::vector<std::vector<uint8_t>> inputs;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(argv[1], ec)) {
        if (!entry.is_regular_file())
            continue;
        std::ifstream in(entry.path(), std::ios::binary);
        inputs.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    if (ec || inputs.empty()) {
        std::fprintf(stderr, "no corpus files in %s\n", argv[1]);
        return 1;
    }
    for (const auto &input : inputs)
        LLVMFuzzerTestOneInput(input.data(), input.size());

    std::mt19937 rng(20261130); // fixed seed: the same mutations every run
    for (int round = 0; round < 20000; ++round) {
        std::vector<uint8_t> data = inputs[rng() % inputs.size()];
        const int edits = 1 + static_cast<int>(rng() % 8);
        for (int e = 0; e < edits; ++e) {
            switch (rng() % 4) {
            case 0:
                if (!data.empty())
                    data[rng() % data.size()] = static_cast<uint8_t>(rng());
                break;
            case 1:
                data.insert(data.begin() + (data.empty() ? 0 : rng() % data.size()),
                            static_cast<uint8_t>(rng()));
                break;
            case 2:
                if (!data.empty())
                    data.erase(data.begin() + rng() % data.size());
                break;
            case 3:
                if (!data.empty())
                    data.resize(rng() % data.size());
                break;
            }
        }
        LLVMFuzzerTestOneInput(data.data(), data.size());
    }
    std::printf("replayed %zu corpus files and 20000 mutations\n", inputs.size());
    return 0;
}
