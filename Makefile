# Armature: the entry points. Everything installs what it needs first.
NODE_MODULES := node_modules/.package-lock.json
TSX := node_modules/.bin/tsx

.PHONY: run build test fuzz generate check check-generated discard-migration migrate bench bench-size bench-32 bench-profile lint typecheck clean

$(NODE_MODULES): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $(NODE_MODULES)

## run: install, migrate the embedded database in ./.data, load demo data once, serve both APIs
## (ARGS: options of `armature run`, e.g. `make run ARGS=--verbose` to name each migration applied)
# Not the tsx CLI: it SIGKILLs a child whose event loop is busy 60 ms after a signal (PGlite
# queries block it), which would cut off the requests a graceful shutdown lets finish.
# V8 sized for a development server's light load: a small young generation and a heap that
# favours size over speed keep the idle process some 70 MB smaller (test/e2e/cli.test.ts).
# glibc's malloc keeps what start-up freed (V8's compiler zones, 16-32 KB each, scattered among
# live blocks): some 100 MB it never gives back. From 16 KB up, blocks are mapped on their own and
# unmapped when freed, and one arena rather than one per thread; other C libraries ignore it.
# NODE_ENV=production: graphql-js's development checks (each type test looks for a second copy
# of the library when it fails) were half of a GraphQL query's CPU.
run: $(NODE_MODULES)
	NODE_ENV=production GLIBC_TUNABLES=glibc.malloc.mmap_threshold=16384:glibc.malloc.trim_threshold=16384:glibc.malloc.arena_max=1 \
	  node --max-semi-space-size=2 --optimize-for-size --import tsx bin/armature.ts run $(ARGS)

## build: compile into dist/ for plain node (`npm start`, `node dist/bin/armature.js serve`)
build: $(NODE_MODULES)
	npm run build

## test: the whole suite (unit, golden, end-to-end, conformance); PostgreSQL when DATABASE_URL is set
test: $(NODE_MODULES)
	node_modules/.bin/mocha

## fuzz: a long seeded sweep of hostile requests over both APIs (FUZZ_REQUESTS, default 30000; FUZZ_SEED)
fuzz: $(NODE_MODULES)
	FUZZ_REQUESTS=$${FUZZ_REQUESTS:-30000} node_modules/.bin/mocha --no-config --node-option import=tsx \
	  --require test/support/hooks.ts --exit test/e2e/robustness/no-5xx.test.ts

## generate: compile spec/ into generated/
generate: $(NODE_MODULES)
	$(TSX) bin/armature.ts generate

## discard-migration: drop what generate wrote since the last commit (a migration never applied), then regenerate from spec/
discard-migration: $(NODE_MODULES)
	git checkout -- generated
	git clean -fdq -- generated
	$(TSX) bin/armature.ts generate

## check / check-generated: fail when generated/ does not match spec/
check check-generated: $(NODE_MODULES)
	$(TSX) bin/armature.ts check

migrate: $(NODE_MODULES)
	$(TSX) bin/armature.ts migrate

## bench: throughput and latency figures against a baseline measured in the same run
bench: $(NODE_MODULES)
	NODE_ENV=production $(TSX) bench/run.ts

## bench-size: `make bench` at 100,000 prefixes (BENCH_PREFIXES) and a change log record for each
bench-size: $(NODE_MODULES)
	NODE_ENV=production BENCH_PREFIXES=$${BENCH_PREFIXES:-100000} $(TSX) bench/run.ts

## bench-32: the issue's check: 32 connections from wrk (where installed; BENCH_DRIVER=node for Node's client),
## one serving process against the floor's one, 5,000 prefixes (BENCH_PREFIXES)
bench-32: $(NODE_MODULES)
	NODE_ENV=production BENCH_PROCESSES=1 BENCH_CONCURRENCY=32 BENCH_DRIVER=$${BENCH_DRIVER:-wrk} BENCH_PREFIXES=$${BENCH_PREFIXES:-5000} $(TSX) bench/run.ts

## bench-profile: where the process's CPU goes per request (PROFILE_ONLY=<name part> picks workloads)
bench-profile: $(NODE_MODULES)
	NODE_ENV=production $(TSX) bench/profile.ts

## lint / typecheck: TypeScript in strict mode over everything
lint typecheck: $(NODE_MODULES)
	node_modules/.bin/tsc --noEmit -p .

clean:
	rm -rf .data
