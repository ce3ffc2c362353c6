#!/usr/bin/env bash
# regen.sh — rebuild the corpus projects' build state and re-capture every
# sample in samples/, then rebuild manifest.json (needles come from needles.json).
#
# Usage: tests/corpus/regen.sh [--install] [NAME_GLOB]
#   --install   first install the tools with apt-get / npm (needs network to the
#               Debian mirror and the npm registry; PyPI is not needed)
#   NAME_GLOB   only re-capture samples whose name matches (e.g. 'git-*')
#
# Every sample is the raw stdout+stderr of a real command run here. Commands
# are run from inside the project directory (recorded as "cwd" in the manifest)
# so paths in the output are relative where the tool allows it.
set -u

CORPUS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Re-exec in a small, fixed environment: reproducible output (locale, no
# RUST_BACKTRACE/CI/… leaking in) and no chance of a token from the caller's
# environment ending up in a sample. HOME is kept for ~/.cargo, ~/.rustup, npm.
if [ -z "${WINNOW_REGEN_CLEAN:-}" ]; then
  keep=()
  for v in SSL_CERT_FILE SSL_CERT_DIR NODE_EXTRA_CA_CERTS; do
    [ -n "${!v:-}" ] && keep+=("$v=${!v}")
  done
  exec env -i WINNOW_REGEN_CLEAN=1 HOME="$HOME" LANG=C.UTF-8 TERM=xterm-256color \
    PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:$HOME/.cargo/bin" \
    GOFLAGS=-buildvcs=false \
    GIT_AUTHOR_DATE='2024-01-02T10:00:00+0100' GIT_COMMITTER_DATE='2024-01-02T10:00:00+0100' \
    "${keep[@]}" bash "${BASH_SOURCE[0]}" "$@"
fi

INSTALL=0
FILTER='*'
for a in "$@"; do
  case $a in
    --install) INSTALL=1 ;;
    *) FILTER=$a ;;
  esac
done

P=$CORPUS/projects
S=$CORPUS/samples
REC=$CORPUS/.captures.tsv
mkdir -p "$S"
: > "$REC"

log() { printf '\033[1m== %s\033[0m\n' "$*" >&2; }

if [ "$INSTALL" = 1 ]; then
  log "installing tools"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y \
    build-essential gcc clang clang-tidy cppcheck valgrind gdb make cmake meson ninja-build \
    golang-go default-jdk-headless maven junit4 libsurefire-java libmaven-compiler-plugin-java \
    libmaven-resources-plugin-java libmaven-jar-plugin-java libmaven-install-plugin-java \
    python3 python3-pytest python3-pip python3-venv flake8 mypy shellcheck \
    ruby ruby-rspec ruby-minitest rake rubocop \
    git rsync tree ripgrep curl wget openssh-client util-linux nodejs npm
  # rust: rustup toolchain with clippy is expected in ~/.cargo/bin
  # infrastructure and cloud CLIs. kubectl: Debian's kubernetes-client, unless a kubectl is
  # already installed (google-cloud-cli ships one at the same path; the two packages conflict)
  DEBIAN_FRONTEND=noninteractive apt-get install -y \
    gradle docker.io busybox-static systemd-journal-remote awscli gh
  command -v kubectl > /dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y kubernetes-client
fi

# ---------------------------------------------------------------------------
# capture helpers
#   cap  NAME FAMILY TOOL OUTPUT_TYPE DIR COMMAND   plain: cmd > file 2>&1
#   capc ...                                         same, the command forces color
#   capt ...                                         run on a pseudo-terminal with
#                                                    `script`, as a terminal shows it
# DIR is relative to projects/ ("." = projects/ itself).
# ---------------------------------------------------------------------------
want() { [[ $1 == $FILTER ]]; }

record() { # name family tool otype dir cmd rc colored tty
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >> "$REC"
}

_run() { # mode name family tool otype dir cmd
  local mode=$1 name=$2 family=$3 tool=$4 otype=$5 dir=$6 cmd=$7 rc colored=false tty=false
  want "$name" || return 0
  log "$name: ($dir) $cmd"
  case $mode in
    plain|color)
      ( cd "$P/$dir" && exec timeout 600 bash -c "$cmd" ) > "$S/$name.txt" 2>&1 < /dev/null
      rc=$? ;;
    tty)
      # script(1) gives the command a pty; its output has CRLF line ends like a
      # real terminal. -e: return the child's exit code.
      ( cd "$P/$dir" && exec script -qefc "$cmd" /dev/null ) > "$S/$name.txt" 2>&1 < /dev/null
      rc=$?; tty=true ;;
  esac
  [ "$mode" = plain ] || colored=true
  record "$name" "$family" "$tool" "$otype" "$dir" "$cmd" "$rc" "$colored" "$tty"
}
cap()  { _run plain "$@"; }
capc() { _run color "$@"; }
capt() { _run tty "$@"; }

# quiet setup step, not a sample
setup() { ( cd "$P/$1" && shift && bash -c "$*" ) > /dev/null 2>&1 < /dev/null; }

# ===========================================================================
# git
# ===========================================================================
log "git repository"
bash "$P/git-repo/make-repo.sh" "$P/git-work" > /dev/null 2>&1
G=git-work/app
cap git-status-clean          git git git-status   $G 'git status'
cap git-log                   git git git-log      $G 'git log'
cap git-log-oneline-graph     git git git-log      $G 'git log --oneline --graph --decorate --all'
capc git-log-oneline-graph-color git git git-log   $G 'git -c color.ui=always log --oneline --graph --decorate --all'
cap git-log-patch             git git git-log      $G 'git log -p -3'
cap git-show                  git git git-show     $G 'git show HEAD~12'
capc git-show-color           git git git-show     $G 'git -c color.ui=always show HEAD~12'
cap git-show-stat             git git git-show     $G 'git show --stat v0.1.0'
cap git-branch                git git git-branch   $G 'git branch -a -vv'
capc git-branch-color         git git git-branch   $G 'git -c color.ui=always branch -a -vv'
cap git-blame                 git git git-blame    $G 'git blame src/inventory.py'
cap git-blame-range           git git git-blame    $G 'git blame -L 10,22 src/inventory.py'
capc git-blame-color          git git git-blame    $G 'git -c color.ui=always blame --color-by-age --color-lines src/config.py'
cap git-blame-missing         git git git-blame    $G 'git blame src/nosuch.py'
cap git-checkout-missing      git git git-branch $G 'git checkout feature/does-not-exist'
cap git-tag                   git git git-tag      $G 'git tag -n'

# dirty working tree: edits in several files, a staged file, a deleted and an untracked one
setup $G "python3 - <<'PY'
import re
p='src/inventory.py'; s=open(p).read()
s=s.replace('    def total(self):\n', '    def names(self):\n        return sorted(self.items)\n\n    def total(self):\n')
s=s.replace('        self.items = {}\n', '        self.items = {}\n        self.history = []\n')
open(p,'w').write(s)
p='src/config.py'; s=open(p).read()
s=s.replace('\"debug\": False', '\"debug\": True').replace('return cfg', 'cfg[\"loaded\"] = True\n    return cfg')
open(p,'w').write(s)
p='README.md'; s=open(p).read(); open(p,'w').write(s+'\n## Development\n\nRun the tests with pytest.\n')
PY
printf 'def test_names():\n    pass\n' > tests/test_names.py
git add tests/test_names.py
git rm -q --cached CHANGELOG.md
echo 'scratch' > notes.txt
mkdir -p tmp && echo x > tmp/debug.log"
cap git-status-dirty          git git git-status   $G 'git status'
capc git-status-dirty-color   git git git-status   $G 'git -c color.ui=always status'
cap git-status-short          git git git-status   $G 'git status -sb'
cap git-status-porcelain      git git git-status   $G 'git status --porcelain=v1'
cap git-diff                  git git git-diff     $G 'git diff'
capc git-diff-color           git git git-diff     $G 'git -c color.ui=always diff'
cap git-diff-stat             git git git-diff     $G 'git diff --stat'
cap git-diff-cached           git git git-diff     $G 'git diff --cached'
cap git-diff-name-status      git git git-diff     $G 'git diff --name-status HEAD~3'
cap git-diff-branches         git git git-diff     $G 'git diff main..feature/port-flag'
cap git-add-commit            git git git-commit   $G 'git add -A && git commit -m "Add names() and dev notes"'
cap git-commit-nothing        git git git-commit   $G 'git commit -m "nothing to see"'

# remote operations against the local bare repository (pack protocol, so progress is real)
cap git-push                  git git git-push     $G 'git push --progress origin main'
setup git-work 'rm -rf clone1 clone2'
cap git-clone                 git git git-clone    git-work 'git clone --progress --no-local origin.git clone1'
capt git-clone-tty            git git git-clone    git-work 'git clone --no-local origin.git clone2'
setup $G 'sed -i "s/8000/8001/" README.md && git commit -qam "Bump documented port" && git push -q origin main'
cap git-fetch                 git git git-fetch    git-work/clone1 'git fetch --progress origin'
cap git-pull                  git git git-pull     git-work/clone1 'git pull --progress'
setup git-work/clone1 'git config user.name "Grace Hopper"; git config user.email grace@example.com; echo "local notes" > NOTES.md; git add -A; git commit -qm "Local notes"'
setup $G 'echo "- change 13" >> README.md && git commit -qam "Another upstream change" && git push -q origin main'
cap git-push-rejected         git git git-push     git-work/clone1 'git push origin main'
cap git-pull-merge            git git git-pull     git-work/clone1 'git pull --no-rebase --no-edit origin main'
cap git-push-new-branch       git git git-push     git-work/clone1 'git push -u origin HEAD:refs/heads/grace/notes'
cap git-remote-missing        git git git-fetch    git-work/clone1 'git fetch ../no-such-repo.git'

# merges
cap git-merge        git git git-merge $G 'git merge feature/port-flag'
cap git-status-conflict       git git git-status   $G 'git status'
cap git-diff-conflict         git git git-diff     $G 'git diff'
setup $G 'git merge --abort'
cap git-merge-clean           git git git-merge    $G 'git merge --no-edit bugfix/total-negative'
cap git-rebase-conflict       git git git-merge   $G 'git checkout -q feature/port-flag && git rebase main'
setup $G 'git rebase --abort; git checkout -q main'

# ===========================================================================
# Python
# ===========================================================================
PY=py-app
setup $PY 'rm -rf .venv .pytest_cache .mypy_cache; find . -name __pycache__ -exec rm -rf {} +'
cap python-unittest-fail      test python-unittest test-unittest $PY 'python3 -m unittest tests.test_core'
cap python-unittest-fail-verbose test python-unittest test-unittest $PY 'python3 -m unittest -v tests.test_core'
cap python-unittest-pass      test python-unittest test-unittest $PY 'python3 -m unittest -v tests_pass.test_ok'
cap pytest-fail               test pytest test-pytest $PY 'pytest tests/test_pricing.py'
capc pytest-fail-color        test pytest test-pytest $PY 'pytest --color=yes tests/test_pricing.py'
capt pytest-fail-tty          test pytest test-pytest $PY 'pytest tests/test_pricing.py'
cap pytest-fail-verbose       test pytest test-pytest $PY 'pytest -v tests'
cap pytest-fail-short-tb      test pytest test-pytest $PY 'pytest -q --tb=short tests'
cap pytest-exitfirst          test pytest test-pytest $PY 'pytest -x tests/test_pricing.py'
cap pytest-pass               test pytest test-pytest $PY 'pytest tests_pass'
cap pytest-pass-quiet         test pytest test-pytest $PY 'pytest -q tests_pass'
cap pytest-collection-error   test pytest test-pytest $PY 'pytest tests_broken'
cap pytest-long-verbose       test pytest test-pytest $PY 'pytest -v tests_long'
cap pytest-no-tests           test pytest test-pytest $PY 'pytest -k nothing_matches_this tests_pass'
cap python-traceback          runtime python3 trace-python $PY 'python3 -m inventory.cli stock.csv'
cap python-traceback-chained  runtime python3 trace-python $PY 'python3 scripts/chained.py'
cap python-syntax-error       runtime python3 trace-python $PY 'python3 scripts/syntax_error.py'
cap python-recursion-error    runtime python3 trace-python $PY 'python3 scripts/recursion.py'
cap python-module-not-found   runtime python3 trace-python $PY 'python3 -c "import requestz"'
cap flake8                    lint flake8 flake8 $PY 'flake8 inventory'
cap flake8-clean              lint flake8 flake8 $PY 'flake8 inventory/core.py'
cap mypy                      lint mypy mypy $PY 'mypy inventory'
capc mypy-color               lint mypy mypy $PY 'mypy --color-output --pretty inventory'
cap mypy-strict               lint mypy mypy $PY 'mypy --strict inventory'
cap mypy-clean                lint mypy mypy $PY 'mypy inventory/core.py'
cap pip-list                  package pip pip $PY 'pip list'
cap pip-show                  package pip pip $PY 'pip show pytest'
cap pip-install-externally-managed package pip pip $PY 'pip install requests'
setup $PY 'python3 -m venv .venv'
cap pip-install-offline       package pip pip $PY '.venv/bin/pip install requests'
cap pip-venv-list             package pip pip $PY '.venv/bin/pip list'

# ===========================================================================
# Node
# ===========================================================================
N=node-app
cap npm-install               package npm npm-install $N 'rm -rf node_modules && npm install'
cap npm-ls                    package npm npm-ls $N 'npm ls'
cap npm-ls-all                package npm npm-ls $N 'npm ls --all'
cap npm-ls-json               data npm json-output $N 'npm ls --json'
cap npm-ls-missing            package npm npm-ls $N 'npm ls left-pad'
cap npm-run-test              test npm test-jest $N 'npm test'
cap npm-run-missing           package npm generic-output $N 'npm run deploy'
cap npm-audit-clean           package npm npm-audit $N 'npm audit'
cap npm-install-audit         package npm npm-install node-audit 'rm -rf node_modules package-lock.json && npm install'
cap npm-audit                 package npm npm-audit node-audit 'npm audit'
cap npm-audit-json            data npm json-output node-audit 'npm audit --json'
cap npm-outdated              package npm npm-outdated node-audit 'npm outdated'
cap npm-install-404           package npm npm-install node-audit 'npm install --no-save winnow-corpus-no-such-package-zz9'
cap node-test-fail            test node test-node $N 'node --test test-node/'
capt node-test-fail-tty       test node test-node $N 'node --test test-node/'
cap node-test-pass            test node test-node $N 'node --test test-node-pass/'
cap node-test-spec            test node test-node $N 'node --test --test-reporter=spec test-node/'
cap jest-fail                 test jest test-jest $N 'npx jest test-jest/'
capc jest-fail-color          test jest test-jest $N 'npx jest --colors test-jest/'
cap jest-fail-verbose         test jest test-jest $N 'npx jest --verbose test-jest/'
cap jest-pass                 test jest test-jest $N 'npx jest test-jest-pass/'
cap jest-no-tests             test jest test-jest $N 'npx jest no-such-dir/'
cap vitest-fail               test vitest test-vitest $N 'npx vitest run test-vitest/'
capt vitest-fail-tty          test vitest test-vitest $N 'npx vitest run test-vitest/'
cap vitest-pass               test vitest test-vitest $N 'npx vitest run test-vitest-pass/'
cap mocha-fail                test mocha test-mocha $N 'npx mocha test-mocha'
capc mocha-fail-color         test mocha test-mocha $N 'npx mocha --color test-mocha'
cap mocha-pass                test mocha test-mocha $N 'npx mocha test-mocha-pass'
cap tsc-error                 build tsc build-typescript $N 'npx tsc -p ts'
capc tsc-error-pretty         build tsc build-typescript $N 'npx tsc -p ts --pretty'
cap eslint                    lint eslint build-eslint $N 'npx eslint lint src'
capc eslint-color             lint eslint build-eslint $N 'npx eslint --color lint src'
cap eslint-clean              lint eslint build-eslint $N 'npx eslint lint/clean.js'
cap eslint-json               data eslint json-output $N 'npx eslint -f json lint/report.js'
cap prettier-check            lint prettier prettier $N 'npx prettier --check fmt'
cap prettier-check-pass       lint prettier prettier $N 'npx prettier --check fmt/pretty.js'
cap esbuild-error             build esbuild build-esbuild $N 'npx esbuild src/entry.js --bundle --outfile=dist/bundle.js'
capc esbuild-error-color      build esbuild build-esbuild $N 'npx esbuild src/entry.js --bundle --outfile=dist/bundle.js --color=true'
cap esbuild-ok                build esbuild build-esbuild $N 'npx esbuild web-ok/main.js --bundle --outfile=dist/ok.js'
cap vite-build-error          build vite build-vite $N 'npx vite build web'
cap vite-build-ok             build vite build-vite $N 'npx vite build web-ok'
cap node-traceback            runtime node trace-node $N 'node src/crash.js'
cap node-unhandled-rejection  runtime node trace-node $N 'node src/reject.js'
cap node-syntax-error         runtime node trace-node $N 'node src/entry.js'
cap node-module-not-found     runtime node trace-node $N "node -e \"require('./src/nope')\""

# ===========================================================================
# Go
# ===========================================================================
setup go-app 'go clean -testcache'
cap go-test-fail              test go test-go go-app 'go test ./inventory/ -run "TestParse|TestTotal|TestNames|TestTable"'
cap go-test-panic             test go test-go go-app 'go test ./...'
cap go-test-verbose           test go test-go go-app 'go test -v ./inventory/ -run "TestParse|TestTotal|TestNames|TestTable"'
cap go-test-pass              test go test-go go-app 'go test ./pricing/'
cap go-test-pass-verbose      test go test-go go-app 'go test -v -count=1 ./pricing/'
cap go-test-json              data go json-output go-app 'go test -json -count=1 ./pricing/'
cap go-build-error            build go build-go go-broken 'go build ./...'
cap go-vet                    lint go build-go go-app 'go vet ./...'
cap go-run-panic              runtime go trace-go-panic go-app 'go run ./cmd/crash'
cap go-run-deadlock           runtime go trace-go-panic go-app 'go run ./cmd/race'
cap go-mod-tidy-ok            package go go-mod go-app 'go mod tidy'
cap go-mod-tidy-offline       package go go-mod go-deps 'go mod tidy'
cap go-build-missing-module   build go build-go go-deps 'go build ./...'

# ===========================================================================
# Rust
# ===========================================================================
R=rust-app
setup $R 'cargo clean'
cap cargo-build               build cargo build-cargo $R 'cargo build'
cap cargo-build-error         build cargo build-cargo rust-broken 'cargo build'
capc cargo-build-error-color  build cargo build-cargo rust-broken 'cargo build --color always'
cap cargo-test-fail           test cargo test-cargo $R 'cargo test'
capc cargo-test-fail-color    test cargo test-cargo $R 'cargo test --color always'
cap cargo-test-backtrace      test cargo test-cargo $R 'RUST_BACKTRACE=1 cargo test average'
cap cargo-test-pass           test cargo test-cargo $R 'cargo test --test integration'
cap cargo-clippy              lint clippy clippy $R 'touch src/lib.rs && cargo clippy'
cap cargo-clippy-deny         lint clippy clippy $R 'touch src/lib.rs && cargo clippy -- -D warnings'
capc cargo-clippy-color       lint clippy clippy $R 'touch src/lib.rs && cargo clippy --color always'
cap cargo-run-which-bin       build cargo build-cargo $R 'cargo run'
cap cargo-run-panic           runtime cargo build-cargo $R 'cargo run --bin winnow-rust-app'
cap cargo-run-panic-backtrace runtime cargo build-cargo $R 'RUST_BACKTRACE=1 cargo run --bin overflow'
cap cargo-metadata            data cargo json-output $R 'cargo metadata --format-version 1 --no-deps'
cap cargo-fetch-offline       package cargo cargo-fetch rust-deps 'cargo fetch'

# ===========================================================================
# C / C++ toolchains
# ===========================================================================
C=c-app
setup $C 'make clean; mkdir -p build'
cap gcc-type-error            build gcc build-gcc $C 'gcc -Wall -Iinclude -c src/main.c -o build/main.o'
capc gcc-type-error-color     build gcc build-gcc $C 'gcc -Wall -fdiagnostics-color=always -Iinclude -c src/main.c -o build/main.o'
cap gcc-warnings              build gcc build-gcc $C 'gcc -Wall -Wextra -O2 -c src/warnings.c -o build/warnings.o'
capc gcc-warnings-color       build gcc build-gcc $C 'gcc -Wall -Wextra -O2 -fdiagnostics-color=always -c src/warnings.c -o build/warnings.o'
cap clang-type-error          build clang build-gcc $C 'clang -Wall -Iinclude -c src/main.c -o build/main.o'
capc clang-type-error-color   build clang build-gcc $C 'clang -Wall -fcolor-diagnostics -Iinclude -c src/main.c -o build/main.o'
cap clang-warnings            build clang build-gcc $C 'clang -Wall -Wextra -c src/warnings.c -o build/warnings.o'
cap gcc-linker-error          build gcc build-gcc $C 'gcc -Iinclude src/save_main.c src/inventory.c -o build/save'
cap clang-linker-error        build clang build-gcc $C 'clang -Iinclude src/save_main.c src/inventory.c -o build/save'
cap make-compile-error        build make build-make $C 'make'
cap make-linker-error         build make build-make $C 'make save'
setup $C 'make clean'
cap make-ok                   build make build-make $C 'make fixed'
cap make-no-rule              build make build-make $C 'make install'
cap make-missing-makefile     build make build-make c-app/src 'make'
cap cppcheck                  lint cppcheck cppcheck $C 'cppcheck --enable=warning,style,performance,portability -Iinclude src'
cap clang-tidy                lint clang-tidy clang-tidy $C 'clang-tidy src/warnings.c src/uaf.c -- -Iinclude'
setup $C 'mkdir -p build && gcc -g -O0 -o build/uaf src/uaf.c && gcc -g -fsanitize=address -o build/uaf-asan src/uaf.c && gcc -g -fsanitize=undefined -o build/ubsan src/ubsan.c && gcc -g -O0 -o build/crash src/crash.c && clang -g -fsanitize=address,undefined -o build/crash-asan src/crash.c'
cap valgrind-memcheck         runtime valgrind valgrind $C 'valgrind --leak-check=full ./build/uaf'
cap valgrind-memcheck-exitcode runtime valgrind valgrind $C 'valgrind -q --error-exitcode=1 ./build/uaf'
cap asan-use-after-free       runtime asan sanitizer $C './build/uaf-asan'
capc asan-use-after-free-color runtime asan sanitizer $C 'ASAN_OPTIONS=color=always ./build/uaf-asan'
cap asan-segv                 runtime asan sanitizer $C './build/crash-asan'
cap ubsan                     runtime ubsan sanitizer $C './build/ubsan'
cap gdb-backtrace             runtime gdb gdb-backtrace $C 'gdb -batch -ex run -ex bt ./build/crash'
cap gdb-backtrace-full        runtime gdb gdb-backtrace $C 'gdb -q -batch -ex run -ex "bt full" -ex "info registers rip" ./build/crash'

# CMake + ctest
setup cmake-app 'rm -rf build'
cap cmake-configure           build cmake build-cmake cmake-app 'cmake -S . -B build'
cap cmake-build               build cmake build-cmake cmake-app 'cmake --build build'
cap ctest-fail                test ctest test-ctest cmake-app 'ctest --test-dir build'
cap ctest-output-on-failure   test ctest test-ctest cmake-app 'ctest --test-dir build --output-on-failure'
cap ctest-pass                test ctest test-ctest cmake-app 'ctest --test-dir build -R "mean|stddev"'
setup cmake-broken 'rm -rf build'
cap cmake-configure-error     build cmake build-cmake cmake-broken 'cmake -S . -B build'

# meson + ninja
setup meson-app 'rm -rf builddir'
cap meson-setup               build meson build-meson meson-app 'meson setup builddir'
cap meson-compile             build meson build-ninja meson-app 'meson compile -C builddir'
setup meson-app 'ninja -C builddir clean'
cap ninja-build               build ninja build-ninja meson-app 'ninja -C builddir'
cap meson-test-fail           test meson test-meson meson-app 'meson test -C builddir'
cap meson-test-errorlogs      test meson test-meson meson-app 'meson test -C builddir --print-errorlogs test_median'
cap meson-test-pass           test meson test-meson meson-app 'meson test -C builddir test_mean test_stddev'

# long build: 420 generated modules, each with a warning, one with an error
setup bigbuild './gen.sh 420 && rm -rf build build-ninja && cmake -S . -B build && cmake -S . -B build-ninja -G Ninja'
cap bigbuild-make-long        build make build-cmake bigbuild 'cmake --build build -- -k'
cap bigbuild-ninja-long       build ninja build-ninja bigbuild 'ninja -C build-ninja -k 0'

# ===========================================================================
# Java
# ===========================================================================
J=java-app
JCP=/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar
setup $J 'rm -rf out target'
cap javac-errors              build javac build-javac $J 'javac -d out broken/com/example/broken/Report.java'
cap javac-syntax-error        build javac build-javac $J 'javac -d out broken-syntax/com/example/broken/Parser.java'
setup $J "javac -d out -cp $JCP \$(find src -name '*.java')"
cap junit-fail                test junit test-junit $J "java -cp out:$JCP org.junit.runner.JUnitCore com.example.inventory.InventoryTest"
cap java-npe                  runtime java trace-java $J 'java -cp out com.example.inventory.Main'
cap java-class-not-found      runtime java trace-java $J 'java -cp out com.example.inventory.Mian'
cap maven-test-fail           test maven build-maven $J 'mvn -B test'
capc maven-test-fail-color    test maven build-maven $J 'mvn -Dstyle.color=always test'
setup java-mvn-broken 'rm -rf target'
cap maven-compile-error       build maven build-maven java-mvn-broken 'mvn -B compile'

# ===========================================================================
# Ruby: RSpec, Minitest (fixed seed: the order is random otherwise), RuboCop
# ===========================================================================
RB=ruby-app
cap rspec-fail                test rspec test-rspec $RB 'rspec'
capc rspec-fail-color         test rspec test-rspec $RB 'rspec --force-color --format documentation'
cap rspec-pass                test rspec test-rspec $RB 'rspec spec/pricing_spec.rb'
cap minitest-fail             test minitest test-minitest $RB 'ruby -Ilib -Itest test/test_inventory.rb --seed 42'
cap minitest-verbose          test minitest test-minitest $RB 'ruby -Ilib -Itest test/test_inventory.rb --seed 42 -v'
cap minitest-pass             test minitest test-minitest $RB 'ruby -Ilib -Itest test/test_pricing.rb --seed 42'
cap rake-test                 test minitest test-minitest $RB 'rake test TESTOPTS=--seed=42'
cap rubocop                   lint rubocop rubocop $RB 'rubocop lib'
capc rubocop-color            lint rubocop rubocop $RB 'rubocop --color lib/report.rb'
cap rubocop-clean             lint rubocop rubocop $RB 'rubocop lib/pricing.rb'

# ===========================================================================
# Terraform (terraform_data is built in: nothing to download); skipped when the
# terraform binary is not installed (it is not a Debian package)
# ===========================================================================
if command -v terraform > /dev/null; then
  TF=tf-app
  setup $TF 'rm -rf .terraform .terraform.lock.hcl terraform.tfstate terraform.tfstate.backup broken/.terraform'
  cap terraform-init          infra terraform terraform-plan $TF 'terraform init -no-color'
  cap terraform-plan          infra terraform terraform-plan $TF 'terraform plan -no-color'
  capc terraform-plan-color   infra terraform terraform-plan $TF 'terraform plan'
  cap terraform-apply         infra terraform terraform-plan $TF 'terraform apply -auto-approve -no-color'
  cap terraform-plan-destroy  infra terraform terraform-plan $TF 'terraform plan -no-color -var replicas=1 -var environment=prod'
  setup $TF/broken 'terraform init -no-color'
  cap terraform-plan-error    infra terraform terraform-plan $TF/broken 'terraform plan -no-color'
  setup $TF 'rm -rf .terraform terraform.tfstate terraform.tfstate.backup broken/.terraform'
fi

# ===========================================================================
# shell linting
# ===========================================================================
cap shellcheck                lint shellcheck shellcheck shell-scripts 'shellcheck deploy.sh'
capc shellcheck-color         lint shellcheck shellcheck shell-scripts 'shellcheck --color=always deploy.sh'
cap shellcheck-gcc            lint shellcheck shellcheck shell-scripts 'shellcheck -f gcc deploy.sh clean.sh'
cap shellcheck-clean          lint shellcheck shellcheck shell-scripts 'shellcheck clean.sh'

# ===========================================================================
# package managers: apt
# ===========================================================================
cap apt-get-install-sim       package apt apt . 'apt-get install -s cowsay'
cap apt-get-install-sim-long  package apt apt . 'apt-get install -s gnome'
cap apt-get-install-missing   package apt apt . 'apt-get install -s winnow-no-such-package'
cap apt-list-installed        package apt apt . 'apt list --installed'
cap apt-cache-policy          package apt apt . 'apt-cache policy git gcc'

# ===========================================================================
# shell utilities
# ===========================================================================
cap ls-la                     shell ls shell-ls c-app 'ls -la'
capc ls-la-color              shell ls shell-ls . 'ls -la --color=always /usr/lib/jvm /etc/apt'
cap ls-missing                shell ls shell-ls c-app 'ls -l src/nope.c include'
cap ls-recursive              shell ls shell-ls rust-app 'ls -R src tests'
cap find-name                 shell find shell-find . "find . -name '*.c' -not -path './bigbuild/*'"
cap find-long                 shell find shell-find . "find /usr/share -name '*.txt'"
cap find-missing-dir          shell find shell-find c-app "find src no-such-dir -name '*.h'"
cap grep-rn                   shell grep shell-grep . "grep -rn 'BUG' --include='*.py' --include='*.js' --include='*.c' --include='*.go' --include='*.rs' --exclude-dir=node_modules --exclude-dir=.venv --exclude-dir=bigbuild ."
capc grep-rn-color            shell grep shell-grep . "grep -rn --color=always 'BUG' --include='*.py' --include='*.js' --exclude-dir=node_modules --exclude-dir=.venv ."
cap grep-no-match             shell grep shell-grep . "grep -rn 'ZZZ_NOT_THERE' c-app/src"
cap rg                        shell rg shell-grep . 'rg -n BUG'
capc rg-color                 shell rg shell-grep . 'rg -n --color=always BUG'
capt rg-tty                   shell rg shell-grep . 'rg BUG'
cap tree                      shell tree shell-tree . 'tree c-app'
cap tree-long                 shell tree shell-tree node-app 'tree -L 2 node_modules'
cap du                        shell du shell-du . 'du -sh *'
cap du-depth                  shell du shell-du node-app 'du -h --max-depth=1 node_modules | sort -h | tail -15'
cap df                        shell df shell-df . 'df -h . /tmp /dev/shm'
# only the demo processes: ps runs in a fresh PID namespace (see README)
cap ps-aux                    shell ps shell-ps . 'unshare --pid --fork --mount-proc bash -c "sleep 30 & python3 -m http.server 8799 --bind 127.0.0.1 >/dev/null 2>&1 & sleep 1; ps aux; kill %1 %2"'
cap env                       shell env shell-env . 'env -i HOME=/home/dev USER=dev SHELL=/bin/bash PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 TERM=xterm-256color EDITOR=vim NODE_ENV=development DATABASE_URL=postgres://dev@localhost/app_dev env'
cap systemctl-status          shell systemctl systemctl-status . 'systemctl status ssh'

# ===========================================================================
# network tools against local servers only
# ===========================================================================
setup http-root 'head -c 8000000 /dev/urandom > big.bin'
python3 -m http.server 8765 --bind 127.0.0.1 --directory "$P/http-root" > /dev/null 2>&1 &
HTTP_PID=$!
sleep 1
setup node-app 'rm -rf downloads; mkdir -p downloads'
cap curl-200                  network curl curl . 'curl -sS -i http://127.0.0.1:8765/data.json'
cap curl-404                  network curl curl . 'curl -fsS http://127.0.0.1:8765/missing.html'
cap curl-404-body             network curl curl . 'curl -i http://127.0.0.1:8765/missing.html'
cap curl-verbose              network curl curl . 'curl -v http://127.0.0.1:8765/'
cap curl-refused              network curl curl . 'curl http://127.0.0.1:9/'
cap curl-progress             network curl curl node-app 'curl -o downloads/big.bin http://127.0.0.1:8765/big.bin'
cap wget-200                  network wget wget node-app 'wget -O downloads/data.json http://127.0.0.1:8765/data.json'
cap wget-404                  network wget wget node-app 'wget http://127.0.0.1:8765/missing.html'
cap wget-big                  network wget wget node-app 'wget -O downloads/big.bin http://127.0.0.1:8765/big.bin'
kill "$HTTP_PID" 2> /dev/null
setup rsync-demo 'rm -rf backup'
cap rsync-archive             network rsync rsync rsync-demo 'rsync -av site/ backup/'
setup rsync-demo 'echo "changed" >> site/posts/post-2.md; rm -f backup/index.html; echo stale > backup/old.txt'
cap rsync-delete-stats        network rsync rsync rsync-demo 'rsync -av --delete --stats site/ backup/'
setup rsync-demo 'sed -i "/^changed$/d" site/posts/post-2.md'
cap rsync-missing-source      network rsync rsync rsync-demo 'rsync -av nosuchdir/ backup/'
cap ssh-unknown-host          network ssh ssh . 'ssh -o BatchMode=yes deploy@nosuchhost.invalid uptime'
cap ssh-refused               network ssh ssh . 'ssh -o BatchMode=yes -p 9 127.0.0.1 true'

# ===========================================================================
if [ "$INSTALL" = 1 ]; then
  log "installing tools (JS builds, pnpm/yarn, poetry, bundler, composer)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y \
    chromium python3-poetry python3-trove-classifiers ruby-bundler composer phpunit
  npm install -g pnpm@12 yarn@1
fi

PW=playwright-app
setup $PW 'rm -rf test-results; [ -d node_modules ] || npm ci'
cap playwright-test-fail      test playwright test-playwright $PW 'npx playwright test inventory'
capt playwright-test-fail-tty test playwright test-playwright $PW 'npx playwright test inventory'
cap playwright-test-line      test playwright test-playwright $PW 'npx playwright test --reporter=line inventory'
cap playwright-test-pass      test playwright test-playwright $PW 'npx playwright test smoke'
cap playwright-test-long      test playwright test-playwright $PW 'npx playwright test catalog'
setup $PW 'rm -rf test-results'

WP=webpack-app
setup $WP 'rm -rf dist; [ -d node_modules ] || npm ci'
cap webpack-build-error       build webpack build-webpack $WP 'npx webpack'
capc webpack-build-error-color build webpack build-webpack $WP 'npx webpack --color'
cap webpack-error-details     build webpack build-webpack $WP 'npx webpack --stats-error-details'
cap webpack-build-ok          build webpack build-webpack $WP 'npx webpack --env ok'
cap webpack-stats-verbose     build webpack build-webpack $WP 'npx webpack --env ok --stats verbose'

PN=pnpm-app
cap pnpm-install              package pnpm pnpm $PN 'rm -rf node_modules pnpm-lock.yaml && pnpm install'
! want pnpm-install-tty || setup $PN 'rm -rf node_modules'
capt pnpm-install-tty         package pnpm pnpm $PN 'pnpm install'
setup $PN '[ -d node_modules ] || pnpm install'
cap pnpm-ls                   package pnpm pnpm $PN 'pnpm ls'
cap pnpm-ls-all               package pnpm pnpm $PN 'pnpm ls --depth Infinity'
cap pnpm-why                  package pnpm pnpm $PN 'pnpm why has-flag'
cap pnpm-add-404              package pnpm pnpm $PN 'pnpm add winnow-corpus-no-such-package-zz9'
cap pnpm-add-no-version       package pnpm pnpm $PN 'pnpm add is-number@99.0.0'

YN=yarn-app
cap yarn-install              package yarn yarn $YN 'rm -rf node_modules yarn.lock && yarn install'
! want yarn-install-tty || setup $YN 'rm -rf node_modules'
capt yarn-install-tty         package yarn yarn $YN 'yarn install'
setup $YN '[ -d node_modules ] || yarn install'
cap yarn-list                 package yarn yarn $YN 'yarn list'
cap yarn-why                  package yarn yarn $YN 'yarn why has-flag'
cap yarn-add-404              package yarn yarn $YN 'yarn add winnow-corpus-no-such-package-zz9'
cap yarn-add-no-version       package yarn yarn $YN 'yarn add is-number@99.0.0'

# poetry: the Debian keyring backend asks D-Bus to unlock a keyring ("Failed to
# unlock the item!"); the null backend is the usual headless setting.
export PYTHON_KEYRING_BACKEND=keyring.backends.null.Keyring
setup poetry-app 'rm -rf .venv poetry.lock'
setup poetry-ok 'rm -rf .venv poetry.lock'
cap poetry-check-errors       package poetry poetry poetry-broken 'poetry check'
cap poetry-check-ok           package poetry poetry poetry-ok 'poetry check'
cap poetry-lock-offline       package poetry poetry poetry-app 'poetry lock'
cap poetry-add-offline        package poetry poetry poetry-app 'poetry add httpx'
cap poetry-lock-offline-verbose package poetry poetry poetry-app 'poetry lock -vvv'
cap poetry-show-no-lock       package poetry poetry poetry-app 'poetry show'
cap poetry-lock-ok            package poetry poetry poetry-ok 'poetry lock'
setup poetry-ok '[ -f poetry.lock ] || poetry lock'
cap poetry-install-ok         package poetry poetry poetry-ok 'poetry install'
cap poetry-show               package poetry poetry poetry-ok 'poetry show'
setup poetry-app 'rm -rf .venv poetry.lock'
setup poetry-ok 'rm -rf .venv poetry.lock'
unset PYTHON_KEYRING_BACKEND

BA=bundle-app
cap bundle-install-local      package bundler bundle-install $BA 'rm -f Gemfile.lock && bundle install --local'
setup $BA '[ -f Gemfile.lock ] || bundle install --local'
cap bundle-check              package bundler bundle-install $BA 'bundle check'
cap bundle-list               package bundler bundle-install $BA 'bundle list'
cap bundle-exec-rspec         test rspec test-rspec $BA 'bundle exec rspec'
capc bundle-exec-rspec-color  test rspec test-rspec $BA 'bundle exec rspec --force-color'
cap bundle-check-missing      package bundler bundle-install bundle-missing 'bundle check'
cap bundle-install-local-missing package bundler bundle-install bundle-missing 'bundle install --local'
cap bundle-install-offline    package bundler bundle-install bundle-missing 'bundle install'
cap bundle-install-gem-not-found package bundler bundle-install bundle-rubocop 'rm -f Gemfile.lock && bundle install --local'
setup bundle-rubocop 'rm -f Gemfile.lock'

PA=php-app
cap composer-validate-ok      package composer composer $PA 'composer validate'
cap composer-validate-errors  package composer composer php-broken 'composer validate'
cap composer-install-ok       package composer composer $PA 'rm -rf vendor composer.lock && composer install'
cap composer-dump-autoload    package composer composer $PA 'composer dump-autoload'
cap composer-dump-autoload-optimized package composer composer $PA 'composer dump-autoload --optimize'
cap composer-install-offline  package composer composer php-deps 'composer install'
capc composer-install-offline-color package composer composer php-deps 'composer install --ansi'
cap composer-require-offline  package composer composer php-deps 'composer require symfony/console'
setup $PA '[ -f vendor/autoload.php ] || composer dump-autoload'
cap phpunit-fail              test phpunit test-phpunit $PA 'phpunit'
capc phpunit-fail-color       test phpunit test-phpunit $PA 'phpunit --colors=always'
cap phpunit-testdox           test phpunit test-phpunit $PA 'phpunit --testdox'
cap phpunit-pass              test phpunit test-phpunit $PA 'phpunit tests-pass'
cap phpunit-testdox-long      test phpunit test-phpunit $PA 'phpunit --testdox tests-long'
=======
# infrastructure: systemd, docker, kubectl; build: gradle; cloud CLIs: aws, gh, gcloud
# ===========================================================================

# systemd without a running systemd: unit files under a --root tree, systemd-analyze
# on units with real mistakes, and journalctl on a journal file written by
# systemd-journal-remote from make-journal.py's export stream
SD=systemd-units
setup $SD 'rm -rf journal root/etc/systemd/system/*.wants && mkdir -p journal && python3 make-journal.py | /lib/systemd/systemd-journal-remote -o journal/web-01.journal -'
cap systemd-analyze-verify    infra systemd-analyze systemctl-status $SD 'systemd-analyze verify root/etc/systemd/system/inventory-worker.service'
cap systemd-analyze-verify-timer infra systemd-analyze systemctl-status $SD 'systemd-analyze verify root/etc/systemd/system/inventory-backup.timer'
cap systemd-analyze-calendar  infra systemd-analyze systemctl-status $SD "systemd-analyze calendar 'daily 02:30' 'Mon..Fri *-*-* 02:30'"
cap systemctl-list-unit-files infra systemctl systemctl-status $SD 'systemctl list-unit-files'
cap systemctl-root-list       infra systemctl systemctl-status $SD 'systemctl --root=root list-unit-files'
cap systemctl-root-enable     infra systemctl systemctl-status $SD 'systemctl --root=root enable inventory-api.service inventory-worker.service inventory-backup.timer'
cap systemctl-is-enabled      infra systemctl systemctl-status $SD 'systemctl --root=root is-enabled inventory-api.service inventory-backup.service inventory-cache.service'
cap systemctl-root-cat        infra systemctl systemctl-status $SD 'systemctl --root=root cat inventory-worker.service'
cap journalctl-unit           infra journalctl systemctl-status $SD 'journalctl --file=journal/web-01.journal -u inventory-worker.service --no-pager'
cap journalctl-errors         infra journalctl systemctl-status $SD 'journalctl --file=journal/web-01.journal -p warning --no-pager'
cap journalctl-all            infra journalctl systemctl-status $SD 'journalctl --directory=journal --no-pager'
cap journalctl-no-entries     infra journalctl systemctl-status $SD 'journalctl --file=journal/web-01.journal -u nginx.service --no-pager'
setup $SD 'rm -rf root/etc/systemd/system/*.wants'

# docker: the CLI alone first (no daemon), then a private dockerd (vfs storage, no
# network) when this runs as root; its one image is busybox-static imported from Debian
DK=docker-app
cap docker-ps-no-daemon       infra docker docker-ps $DK 'docker ps'
if command -v dockerd > /dev/null && [ "$(id -u)" = 0 ] && [ -x /bin/busybox ]; then
  DKS=$(mktemp -d /tmp/winnow-corpus-docker.XXXXXX)
  dockerd --storage-driver=vfs --data-root="$DKS/data" --exec-root="$DKS/exec" --pidfile="$DKS/dockerd.pid" \
    -H "unix://$DKS/docker.sock" --iptables=false --bridge=none > "$DKS/dockerd.log" 2>&1 &
  DOCKERD_PID=$!
  export DOCKER_HOST="unix://$DKS/docker.sock"
  for _ in $(seq 60); do docker info > /dev/null 2>&1 && break; sleep 0.5; done
  mkdir -p "$DKS/rootfs/bin"
  cp /bin/busybox "$DKS/rootfs/bin/"
  for a in $(/bin/busybox --list | grep -vx busybox); do ln -sf busybox "$DKS/rootfs/bin/$a"; done
  tar -C "$DKS/rootfs" -c . | docker import - winnow/busybox:1.35 > /dev/null
  cap docker-build-error      infra docker docker-build $DK 'docker build -t inventory:dev .'
  cap docker-build-missing-file infra docker docker-build $DK 'docker build -f Dockerfile.missing -t inventory:missing .'
  cap docker-build-ok         infra docker docker-build $DK 'docker build -f Dockerfile.ok -t inventory:ok .'
  cap docker-build-cached     infra docker docker-build $DK 'docker build -f Dockerfile.ok -t inventory:ok .'
  setup $DK 'docker run --name inventory-worker inventory:ok; docker run -d --name inventory-idle winnow/busybox:1.35 sleep 600; docker run --name inventory-once -e BROKER_URL=amqp://broker:5672 inventory:ok'
  cap docker-ps-all           infra docker docker-ps $DK 'docker ps -a'
  cap docker-ps               infra docker docker-ps $DK 'docker ps'
  cap docker-logs             infra docker docker-logs $DK 'docker logs inventory-worker'
  cap docker-logs-timestamps  infra docker docker-logs $DK 'docker logs -t inventory-worker'
  cap docker-run-missing-image infra docker docker-logs $DK 'docker run --rm --pull never inventory:nosuch'
  # no container may outlive the daemon (a running one keeps its shim alive)
  docker rm -f $(docker ps -aq) > /dev/null 2>&1
  kill "$DOCKERD_PID" 2> /dev/null; wait "$DOCKERD_PID" 2> /dev/null
  unset DOCKER_HOST
  umount "$DKS/data" 2> /dev/null
  rm -rf "$DKS"
fi

# kubectl with no cluster: a kubeconfig naming closed local ports
K=k8s-app
export KUBECONFIG="$P/$K/kubeconfig"
cap kubectl-get-pods-refused  infra kubectl kubectl $K 'kubectl get pods'
cap kubectl-apply-refused     infra kubectl kubectl $K 'kubectl apply --dry-run=client -f manifests/deployment.yaml'
cap kubectl-apply-syntax      infra kubectl kubectl $K 'kubectl apply --dry-run=client -f broken/service.yaml'
cap kubectl-kustomize         infra kubectl kubectl $K 'kubectl kustomize overlays/prod'
cap kubectl-kustomize-error   infra kubectl kubectl $K 'kubectl kustomize overlays/staging'
cap kubectl-create-dry-run    infra kubectl kubectl $K 'kubectl create deployment inventory-worker --image=inventory-worker:0.9.1 --replicas=2 --dry-run=client -o yaml'
cap kubectl-config-contexts   infra kubectl kubectl $K 'kubectl config get-contexts'
unset KUBECONFIG

# Gradle (Debian's 4.4.1 on JDK 17), offline: JUnit 4 from /usr/share/java
GR=gradle-app
setup $GR 'rm -rf build .gradle broken/build broken/.gradle'
cap gradle-test-fail          test gradle gradle $GR 'gradle --offline --no-daemon test'
capt gradle-test-fail-tty     test gradle gradle $GR 'gradle --offline --no-daemon test'
cap gradle-test-stacktrace    test gradle gradle $GR 'gradle --offline --no-daemon test --stacktrace'
cap gradle-test-pass          test gradle gradle $GR 'gradle --offline --no-daemon test --tests com.example.shop.CartTest.countsItems'
cap gradle-compile-error      build gradle gradle $GR/broken 'gradle --offline --no-daemon build'
cap gradle-no-task            build gradle gradle $GR 'gradle --offline --no-daemon deploy'
setup $GR 'rm -rf build .gradle broken/build broken/.gradle'

# cloud CLIs: configuration from projects/cloud-cli only; the aws endpoint is a
# python3 http.server on 127.0.0.1 (an HTML answer, a 404) or a closed port
CL=cloud-cli
export AWS_CONFIG_FILE="$P/$CL/aws/config" AWS_SHARED_CREDENTIALS_FILE="$P/$CL/aws/credentials" AWS_PAGER=
python3 -m http.server 8767 --bind 127.0.0.1 --directory "$P/$CL/endpoint" > /dev/null 2>&1 &
AWS_HTTP_PID=$!
sleep 1
cap aws-configure-list        infra aws aws $CL 'aws configure list'
cap aws-s3-ls-bad-xml         infra aws aws $CL 'aws s3 ls --endpoint-url http://127.0.0.1:8767'
cap aws-s3-ls-404             infra aws aws $CL 'aws s3 ls s3://inventory-archive --endpoint-url http://127.0.0.1:8767'
cap aws-s3-cp-missing         infra aws aws $CL 'aws s3 cp backup.sql.gz s3://inventory-backups/ --endpoint-url http://127.0.0.1:8767'
cap aws-ec2-refused           infra aws aws $CL 'aws ec2 describe-instances --endpoint-url http://127.0.0.1:9'
cap aws-ec2-refused-debug     infra aws aws $CL 'aws ec2 describe-instances --endpoint-url http://127.0.0.1:9 --debug'
cap aws-missing-argument      infra aws aws $CL 'aws s3api list-objects-v2 --endpoint-url http://127.0.0.1:8767'
cap aws-no-credentials        infra aws aws $CL 'AWS_SHARED_CREDENTIALS_FILE=/dev/null aws s3 ls s3://inventory-backups --endpoint-url http://127.0.0.1:8767'
cap aws-unknown-profile       infra aws aws $CL 'aws --profile production s3 ls'
kill "$AWS_HTTP_PID" 2> /dev/null
unset AWS_CONFIG_FILE AWS_SHARED_CREDENTIALS_FILE AWS_PAGER

export GH_CONFIG_DIR="$P/$CL/gh-config" GH_NO_UPDATE_NOTIFIER=1
setup $CL 'rm -rf gh-config gh-repo && git init -q gh-repo && git -C gh-repo remote add origin https://github.com/example-org/inventory.git'
cap gh-version                infra gh gh $CL 'gh --version'
cap gh-auth-status            infra gh gh $CL 'gh auth status'
cap gh-pr-list-no-auth        infra gh gh $CL/gh-repo 'gh pr list'
cap gh-pr-list-offline        infra gh gh $CL/gh-repo 'GH_TOKEN=winnow-corpus-dummy gh pr list'
cap gh-unknown-command        infra gh gh $CL/gh-repo 'gh pr merge-all'
unset GH_CONFIG_DIR GH_NO_UPDATE_NOTIFIER

# gcloud is not a Debian package (Google's own repository): captured only where it is
# installed, with a fresh configuration directory and no account
if command -v gcloud > /dev/null; then
  export CLOUDSDK_CONFIG="$P/$CL/gcloud-config" CLOUDSDK_CORE_DISABLE_PROMPTS=1
  setup $CL 'rm -rf gcloud-config'
  cap gcloud-no-account       infra gcloud gcloud $CL 'gcloud compute instances list --project inventory-staging-4711'
  cap gcloud-no-project       infra gcloud gcloud $CL 'gcloud run services list --region europe-west1'
  cap gcloud-invalid-choice   infra gcloud gcloud $CL 'gcloud compute instnces list'
  cap gcloud-config-set       infra gcloud gcloud $CL 'gcloud config set project inventory-staging-4711'
  setup $CL 'rm -rf gcloud-config'
  unset CLOUDSDK_CONFIG CLOUDSDK_CORE_DISABLE_PROMPTS
fi

# linker: a symbol defined twice (the undefined-reference samples are in the C section)
setup c-app 'mkdir -p build'
cap gcc-multiple-definition   build gcc build-gcc c-app 'gcc -Iinclude src/fixed_main.c src/inventory.c src/legacy_value.c src/legacy_debug.c -o build/fixed-dup'
cap clang-multiple-definition build clang build-gcc c-app 'clang -Iinclude src/fixed_main.c src/inventory.c src/legacy_value.c src/legacy_debug.c -o build/fixed-dup'
# JavaScript builds, browser tests and package managers beyond npm; Poetry,
# Bundler, Composer (PyPI, RubyGems and Packagist are unreachable: their
# network steps are real offline failures). Playwright drives Debian's
# chromium (playwright.config.js), never a downloaded browser build.
# uv is neither in Debian 12 nor on npm: no samples.
# ====================================================================
# ===========================================================================
log "building manifest.json"
python3 "$CORPUS/build_manifest.py"
