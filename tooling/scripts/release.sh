#!/usr/bin/env bash
# `pnpm release`: build, check and publish every package with pending changesets.
# `pnpm release --dry-run` (CI runs it as `pnpm release:dry-run`) does the same on a scratch git
# worktree and branch, never touching this checkout: `changeset version` there, then
# `pnpm publish --dry-run` of every publishable package, so the first real publish is not the
# first try. It needs the packages built (dist/) in this checkout; it copies them.
# `pnpm release --registry <url>` publishes to that registry instead of npm's (its token comes from
# .npmrc as usual); `--no-build` skips build and check:publish when dist/ is built and checked
# already. `pnpm test:registry` releases with both to a local Verdaccio (tooling/registry).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

dry_run="" registry="" build=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --registry) [[ $# -ge 2 ]] || { echo "release: --registry needs a URL" >&2; exit 2; }; registry=$2; shift ;;
    --registry=*) registry=${1#--registry=} ;;
    --no-build) build=0 ;;
    *) echo "release: unknown option $1 (options: --dry-run, --registry <url>, --no-build)" >&2; exit 2 ;;
  esac
  shift
done

if [[ -z "$dry_run" ]]; then
  if [[ -n "$registry" ]]; then export npm_config_registry=$registry; fi
  if [[ "$build" == 1 ]]; then pnpm turbo run build check:publish; fi
  exec pnpm changeset publish
fi

for dir in packages/*/; do
  if node -e "process.exit(require('./${dir}package.json').private ? 0 : 1)"; then continue; fi
  if [[ ! -d "${dir}dist" ]]; then echo "release --dry-run: ${dir} has no dist/: run pnpm build first" >&2; exit 1; fi
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/cuttle-release-XXXXXX")
branch="release-dry-run/$(date +%Y%m%d-%H%M%S)-$$"
cleanup() {
  git -C "$root" worktree remove --force "$scratch/repo" >/dev/null 2>&1 || true
  git -C "$root" branch -D "$branch" >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap cleanup EXIT

git worktree add --quiet -b "$branch" "$scratch/repo" HEAD
# What the working tree has that HEAD lacks (pending changesets, package.json edits) goes along,
# so a dry run before committing tests what would be committed.
git ls-files --modified --others --exclude-standard -z -- .changeset packages/*/package.json packages/*/CHANGELOG.md \
  | while IFS= read -r -d '' file; do
      if [[ -e "$file" ]]; then mkdir -p "$scratch/repo/$(dirname "$file")" && cp "$file" "$scratch/repo/$file"; else rm -f "$scratch/repo/$file"; fi
    done
cd "$scratch/repo"
pnpm install --prefer-offline --frozen-lockfile --reporter=silent >/dev/null
for dir in "$root"/packages/*/; do
  name=$(basename "$dir")
  if [[ -d "$dir/dist" && -d "packages/$name" ]]; then cp -R "$dir/dist" "packages/$name/dist"; fi
done

pending=$(find .changeset -name '*.md' ! -name README.md | wc -l)
before=$(node -e "const fs=require('fs');for(const d of fs.readdirSync('packages')){const p=JSON.parse(fs.readFileSync('packages/'+d+'/package.json'));if(!p.private)console.log(p.name+'@'+p.version)}")
pnpm changeset version >/dev/null
after=$(node -e "const fs=require('fs');for(const d of fs.readdirSync('packages')){const p=JSON.parse(fs.readFileSync('packages/'+d+'/package.json'));if(!p.private)console.log(p.name+'@'+p.version)}")
left=$(find .changeset -name '*.md' ! -name README.md | wc -l)
if [[ "$pending" -gt 0 && "$before" == "$after" ]]; then echo "release --dry-run: $pending changeset(s) but changeset version bumped nothing" >&2; exit 1; fi
if [[ "$left" -ne 0 ]]; then echo "release --dry-run: changeset version left $left changeset(s) behind" >&2; exit 1; fi
echo "release --dry-run: changeset version consumed $pending changeset(s) on scratch branch $branch:"
diff <(echo "$before") <(echo "$after") | sed -n 's/^> /  /p' || true
git add -A >/dev/null && git -c user.name=release-dry-run -c user.email=release@localhost commit --quiet --no-verify -m "Version packages (dry run)"

count=0
for dir in packages/*/; do
  if node -e "process.exit(require('./${dir}package.json').private ? 0 : 1)"; then continue; fi
  (cd "$dir" && pnpm publish --dry-run --no-git-checks --access public >"$scratch/publish.log" 2>&1) || { cat "$scratch/publish.log" >&2; echo "release --dry-run: pnpm publish --dry-run failed in $dir" >&2; exit 1; }
  grep -q "Tarball Contents\|package size\|total files" "$scratch/publish.log" || { cat "$scratch/publish.log" >&2; echo "release --dry-run: no tarball listed for $dir" >&2; exit 1; }
  count=$((count + 1))
done
echo "release --dry-run: pnpm publish --dry-run ok for $count package(s); nothing was published, this checkout is untouched"
