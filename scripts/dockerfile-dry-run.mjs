// The Dockerfile, run without a container runtime (issue 23 point 5): on a machine with no Docker
// daemon and no registry of base images, this reads ../Dockerfile and ../.dockerignore and does
// what `docker build` and `docker run` would, in a clean temporary folder:
//
// - the build context: this repository's files that .dockerignore lets through (its rules applied
//   as Docker applies them: the last matching line wins, a line matches a path or a parent of it);
// - each stage in its own folder standing for its root file system: FROM an earlier stage copies
//   that stage's folder, FROM an image starts empty (the image's Node is this machine's, or --node);
//   WORKDIR, ENV, ARG and COPY (from the context or --from a stage) as Docker does them; every RUN
//   line through `sh -c` in the stage's WORKDIR with the stage's environment;
// - the last stage is the image: its size is measured, and its CMD started as its USER with its ENV
//   (PORT and HOST changed to a free loopback port), until its HEALTHCHECK command passes; then the
//   readiness, the web app, a demo sign-in and a SIGTERM are checked.
//
// What it cannot stand for: the base image itself (its Node and npm are this machine's, or the
// --node binary; its Debian libraries are this machine's), layer caching, and the image's file
// ownership (files are root's here as there). RUN lines may name only relative paths, which is all
// the folder mapping can follow; the script refuses a line that names an absolute one.
//
//   node scripts/dockerfile-dry-run.mjs [--node /path/to/node] [--keep]
//   node scripts/dockerfile-dry-run.mjs --plan     # the stages and the context, as JSON; builds nothing
//
// Docker's reference: https://docs.docker.com/reference/dockerfile/ and
// https://docs.docker.com/build/concepts/context/#dockerignore-files
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, copyFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, posix } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** @typedef {{ keyword: string, args: string, line: number }} Instruction */
/** @typedef {{ name: string, base: string, instructions: Instruction[] }} Stage */
/** @typedef {{ negated: boolean, regex: RegExp, text: string }} IgnoreRule */

/**
 * The Dockerfile's instructions by stage, continuation lines joined and comments dropped; the
 * ARGs before the first FROM are global (their defaults fill ${NAME} in FROM lines).
 * @param {string} text
 * @returns {{ globalArgs: Record<string, string>, stages: Stage[] }}
 */
export function parseDockerfile(text) {
  /** @type {Instruction[]} */
  const instructions = [];
  let pending = '';
  let startLine = 0;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trimEnd();
    if (pending === '' && (line.trim() === '' || line.trimStart().startsWith('#'))) continue;
    if (pending !== '' && line.trimStart().startsWith('#')) continue;
    if (pending === '') startLine = index + 1;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const whole = `${pending}${line}`.trim();
    pending = '';
    const match = /^(\S+)\s*(.*)$/s.exec(whole);
    if (match) instructions.push({ keyword: (match[1] ?? '').toUpperCase(), args: (match[2] ?? '').trim(), line: startLine });
  }
  /** @type {Record<string, string>} */
  const globalArgs = {};
  /** @type {Stage[]} */
  const stages = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!from) throw new Error(`line ${instruction.line}: FROM <image> [AS <name>] expected`);
      const base = (from[1] ?? '').replace(/\$\{(\w+)\}/g, (_all, /** @type {string} */ name) => globalArgs[name] ?? '');
      stages.push({ name: from[2] ?? String(stages.length), base, instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG') throw new Error(`line ${instruction.line}: only ARG may come before the first FROM`);
      const [name, value = ''] = instruction.args.split('=');
      globalArgs[name ?? ''] = value;
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return { globalArgs, stages };
}

/**
 * .dockerignore's rules, in order.
 * @param {string} text
 * @returns {IgnoreRule[]}
 */
export function parseDockerignore(text) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const pattern = posix.normalize((negated ? line.slice(1) : line).trim()).replace(/^\/+/, '').replace(/\/+$/, '');
      let source = '';
      for (let i = 0; i < pattern.length; i += 1) {
        const char = pattern.charAt(i);
        if (char === '*' && pattern[i + 1] === '*') {
          // `**/` is any number of folders (none too); `**` elsewhere is anything.
          if (pattern[i + 2] === '/') {
            source += '(?:.*/)?';
            i += 2;
          } else {
            source += '.*';
            i += 1;
          }
        } else if (char === '*') source += '[^/]*';
        else if (char === '?') source += '[^/]';
        else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      }
      return { negated, regex: new RegExp(`^${source}$`), text: line };
    });
}

/**
 * Whether Docker leaves `path` (relative, with /) out of the context: the last rule that matches
 * it or one of its parent folders decides.
 * @param {IgnoreRule[]} rules
 * @param {string} path
 */
export function isIgnored(rules, path) {
  const parts = path.split('/');
  const candidates = parts.map((_part, index) => parts.slice(0, index + 1).join('/'));
  let ignored = false;
  for (const rule of rules) if (candidates.some((candidate) => rule.regex.test(candidate))) ignored = !rule.negated;
  return ignored;
}

/**
 * The context's files (relative paths), as Docker walks them: a left-out folder is not entered
 * unless a `!` rule names something inside it.
 * @param {string} directory
 * @param {IgnoreRule[]} rules
 * @returns {string[]}
 */
export function contextFiles(directory, rules) {
  /** @type {string[]} */
  const files = [];
  /** @param {string} folder */
  const walk = (folder) => {
    for (const entry of readdirSync(join(directory, folder), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        const mayHoldExceptions = rules.some((rule) => rule.negated && rule.text.slice(1).replace(/^\/+/, '').startsWith(`${path}/`));
        if (!isIgnored(rules, path) || mayHoldExceptions) walk(path);
      } else if (!isIgnored(rules, path)) {
        files.push(path);
      }
    }
  };
  walk('');
  return files;
}

const FOLLOWED = new Set(['WORKDIR', 'ENV', 'ARG', 'COPY', 'RUN', 'USER', 'EXPOSE', 'VOLUME', 'CMD', 'HEALTHCHECK']);

/**
 * The forms this dry run can follow, and what the image must be: a line outside them is refused
 * here rather than run differently from Docker.
 * @param {Stage[]} stages
 */
export function checkDockerfile(stages) {
  /** @type {string[]} */
  const problems = [];
  for (const stage of stages) {
    for (const { keyword, args, line } of stage.instructions) {
      if (!FOLLOWED.has(keyword)) problems.push(`line ${line}: ${keyword} is not followed by the dry run`);
      if (keyword === 'RUN' && /(^|[\s=:;&|(])\/(?!dev\/null)/.test(args)) problems.push(`line ${line}: a RUN line names an absolute path, which the dry run cannot map: use paths relative to WORKDIR`);
      if (keyword === 'COPY' && args.split(/\s+/).some((word) => word.startsWith('--') && !word.startsWith('--from='))) problems.push(`line ${line}: only COPY --from is followed by the dry run`);
      if (keyword === 'COPY' && /[*?[]/.test(args)) problems.push(`line ${line}: COPY with wildcards is not followed by the dry run`);
    }
  }
  const users = stages.at(-1)?.instructions.filter((instruction) => instruction.keyword === 'USER') ?? [];
  const user = users.at(-1)?.args ?? '0';
  if (!/^[1-9]\d*(:\d+)?$/.test(user)) problems.push(`USER ${user}: the image must run as a numeric user other than root`);
  if (problems.length > 0) throw new Error(problems.join('\n'));
}

/** An instruction's JSON array (exec form): strings only. @param {string} text @returns {string[]} */
function jsonList(text) {
  /** @type {unknown} */
  const value = JSON.parse(text);
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw new Error(`a JSON array of strings expected: ${text}`);
  return value.map((item) => String(item));
}

/** This machine's way to the network, handed to RUN lines: proxies and the CAs to trust. */
const network = Object.fromEntries(
  ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'no_proxy']
    .flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])),
);

/** @param {string} path */
const sizeOf = (path) => Number(execFileSync('du', ['-sb', path], { encoding: 'utf8' }).split('\t')[0]);
const mb = (/** @type {number} */ bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`;

/** @returns {Promise<number>} */
const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => { resolve(port); });
    });
  });

/** Copies a file or a folder's contents as `cp -a` does (modes, links). @param {string} from @param {string} to */
function copyInto(from, to) {
  if (lstatSync(from).isDirectory()) {
    mkdirSync(to, { recursive: true });
    execFileSync('cp', ['-a', `${from}/.`, to]);
  } else {
    mkdirSync(dirname(to), { recursive: true });
    execFileSync('cp', ['-a', from, to]);
  }
}

async function main() {
  const args = process.argv.slice(2);
  const nodeFlag = args.indexOf('--node');
  const node = nodeFlag >= 0 ? (args[nodeFlag + 1] ?? '') : process.execPath;
  const keep = args.includes('--keep');
  const { globalArgs, stages } = parseDockerfile(readFileSync(join(root, 'Dockerfile'), 'utf8'));
  const rules = parseDockerignore(readFileSync(join(root, '.dockerignore'), 'utf8'));
  checkDockerfile(stages);
  if (args.includes('--plan')) {
    // What would be built, without building: the stages and the context's files (tests read it).
    console.log(JSON.stringify({ globalArgs, stages, context: contextFiles(root, rules) }, null, 1));
    return;
  }
  const npmBin = dirname(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
  const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const npmVersion = execFileSync(join(npmBin, 'npm'), ['--version'], { encoding: 'utf8', env: { ...process.env, PATH: `${dirname(node)}:${npmBin}:/usr/bin:/bin` } }).trim();

  const work = mkdtempSync(join(tmpdir(), 'rideway-dockerfile-'));
  // The image's user (not root) must reach the image's folder.
  chmodSync(work, 0o755);
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let server;
  const started = performance.now();
  /** @type {{ step: string, ms: number }[]} */
  const timings = [];
  const timed = (/** @type {string} */ step, /** @type {() => void} */ work_) => {
    const at = performance.now();
    work_();
    timings.push({ step, ms: performance.now() - at });
  };
  try {
    console.log(`Dockerfile dry run in ${work}: node ${nodeVersion} (${node}), npm ${npmVersion}`);
    const context = join(work, 'context');
    /** @type {string[]} */
    let files = [];
    timed('context', () => {
      files = contextFiles(root, rules);
      for (const file of files) {
        const from = join(root, file);
        const to = join(context, file);
        mkdirSync(dirname(to), { recursive: true });
        if (lstatSync(from).isSymbolicLink()) symlinkSync(readlinkSync(from), to);
        else copyFileSync(from, to);
      }
    });
    console.log(`context: ${files.length} files, ${mb(sizeOf(context))} (.dockerignore applied)`);

    /** Stages still to be read from, by name: a stage no later one reads is moved, not copied. */
    const readers = (/** @type {string} */ name, /** @type {number} */ after) =>
      stages.slice(after + 1).filter((stage) => stage.base === name || stage.instructions.some((i) => i.keyword === 'COPY' && i.args.includes(`--from=${name} `))).length;

    /** @type {Map<string, { dir: string, env: Record<string, string>, workdir: string, user: string, cmd: string[], healthcheck: string[], expose: string[], volumes: string[] }>} */
    const built = new Map();
    for (const [index, stage] of stages.entries()) {
      const dir = join(work, 'stages', stage.name);
      const parent = built.get(stage.base);
      if (parent) {
        const ms = performance.now();
        if (readers(stage.base, index) === 0 && stage.instructions.every((i) => !i.args.includes(`--from=${stage.base} `))) {
          mkdirSync(dirname(dir), { recursive: true });
          renameSync(parent.dir, dir);
        } else {
          copyInto(parent.dir, dir);
        }
        timings.push({ step: `${stage.name}: FROM ${stage.base}`, ms: performance.now() - ms });
      } else {
        mkdirSync(dir, { recursive: true });
        console.log(`${stage.name}: FROM ${stage.base} (an empty root; the image's node and npm are this machine's)`);
      }
      chmodSync(dir, 0o755);
      const state = parent
        ? { ...parent, dir, env: { ...parent.env }, cmd: [...parent.cmd], healthcheck: [...parent.healthcheck], expose: [...parent.expose], volumes: [...parent.volumes] }
        : { dir, env: /** @type {Record<string, string>} */ ({}), workdir: '/', user: '0', cmd: /** @type {string[]} */ ([]), healthcheck: /** @type {string[]} */ ([]), expose: /** @type {string[]} */ ([]), volumes: /** @type {string[]} */ ([]) };
      const inStage = (/** @type {string} */ path) => join(dir, isAbsolute(path) ? path : posix.join(state.workdir, path));
      for (const instruction of stage.instructions) {
        const label = `${stage.name}: ${instruction.keyword} ${instruction.args}`.slice(0, 110);
        const expand = (/** @type {string} */ value) => value.replace(/\$\{?(\w+)\}?/g, (_all, /** @type {string} */ name) => state.env[name] ?? globalArgs[name] ?? '');
        switch (instruction.keyword) {
          case 'WORKDIR':
            state.workdir = posix.resolve(state.workdir, expand(instruction.args));
            mkdirSync(join(dir, state.workdir), { recursive: true });
            break;
          case 'ENV':
            for (const [, name, value] of instruction.args.matchAll(/(\w+)=("[^"]*"|\S*)/g)) state.env[name ?? ''] = expand((value ?? '').replace(/^"|"$/g, ''));
            break;
          case 'ARG':
            break;
          case 'COPY': {
            const words = instruction.args.split(/\s+/);
            const options = words.filter((word) => word.startsWith('--'));
            const paths = words.filter((word) => !word.startsWith('--'));
            const destination = paths.pop() ?? '';
            const fromStage = options.find((option) => option.startsWith('--from='))?.slice('--from='.length);
            const source = fromStage ? built.get(fromStage)?.dir : context;
            if (!source) throw new Error(`line ${instruction.line}: no stage ${String(fromStage)}`);
            timed(label, () => {
              for (const path of paths) {
                const from = join(source, path);
                if (!existsSync(from)) throw new Error(`line ${instruction.line}: ${path} is not in ${fromStage ? `stage ${fromStage}` : 'the build context'}`);
                const intoFolder = destination.endsWith('/') || paths.length > 1 || statSync(from).isDirectory();
                copyInto(from, intoFolder && !statSync(from).isDirectory() ? join(inStage(destination), posix.basename(path)) : inStage(destination));
              }
            });
            break;
          }
          case 'RUN': {
            console.log(`\n>> ${label}`);
            timed(label, () => {
              const result = spawnSync('sh', ['-c', instruction.args], {
                cwd: join(dir, state.workdir),
                stdio: 'inherit',
                // The image's environment: its ENV, with its node and npm first on the PATH. npm's
                // download cache and settings are this machine's (a build without a cache fetches
                // the same files), and so is the way to the registry (its proxy and CA, as a
                // builder's network would be).
                env: { ...network, ...state.env, PATH: `${dirname(node)}:${npmBin}:/usr/bin:/bin`, HOME: process.env.HOME ?? work },
              });
              if (result.status !== 0) throw new Error(`line ${instruction.line}: RUN failed (${String(result.status ?? result.signal)})`);
            });
            break;
          }
          case 'USER':
            state.user = instruction.args;
            break;
          case 'EXPOSE':
            state.expose.push(...instruction.args.split(/\s+/));
            break;
          case 'VOLUME':
            state.volumes.push(...jsonList(instruction.args));
            break;
          case 'CMD':
            state.cmd = jsonList(instruction.args);
            break;
          case 'HEALTHCHECK': {
            const exec = /CMD\s+(\[.*\])$/s.exec(instruction.args);
            if (!exec) throw new Error(`line ${instruction.line}: HEALTHCHECK ... CMD [exec form] expected`);
            state.healthcheck = jsonList(exec[1] ?? '[]');
            break;
          }
          default:
            throw new Error(`line ${instruction.line}: ${instruction.keyword} is not followed by this dry run`);
        }
      }
      built.set(stage.name, state);
    }

    // The image: the last stage.
    const image = built.get(stages.at(-1)?.name ?? '');
    if (!image) throw new Error('no stage');
    const imageSize = sizeOf(image.dir);
    const parts = ['app/node_modules', 'app/apps/server/dist', 'app/apps/web/dist'].filter((part) => existsSync(join(image.dir, part)));
    console.log(`\nimage (the runtime stage, above the base image): ${mb(imageSize)}: ${parts.map((part) => `${part} ${mb(sizeOf(join(image.dir, part)))}`).join(', ')}`);
    const [uid, gid = uid] = image.user.split(':').map(Number);

    // `docker run`: the CMD as the USER with the ENV; absolute paths the image holds are mapped.
    const port = await freePort();
    /** @type {Record<string, string>} */
    const env = { PATH: `${dirname(node)}:/usr/bin:/bin` };
    for (const [name, value] of Object.entries(image.env)) env[name] = isAbsolute(value) && existsSync(join(image.dir, value)) ? join(image.dir, value) : value;
    Object.assign(env, { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
    const [command = '', ...commandArgs] = image.cmd;
    const program = [command === 'node' ? node : command, ...commandArgs];
    // As the image's user: setpriv changes to it and runs the program in its place (same pid).
    const asUser = process.getuid?.() === 0 ? ['setpriv', `--reuid=${String(uid)}`, `--regid=${String(gid)}`, '--clear-groups', '--', ...program] : program;
    const startedAt = performance.now();
    // Its own process group, signalled as a container runtime signals the container.
    const child = spawn(asUser[0] ?? '', asUser.slice(1), { cwd: join(image.dir, image.workdir), env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
    server = child;
    /** @type {Promise<number | null>} */
    const exited = new Promise((resolve) => child.once('exit', (code) => { resolve(code); }));
    const [check = '', ...checkArgs] = image.healthcheck;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${String(child.exitCode)}`);
      if (performance.now() - startedAt > 120_000) throw new Error('the HEALTHCHECK did not pass within 120 s');
      if (spawnSync(check === 'node' ? node : check, checkArgs, { env, timeout: 5000 }).status === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const healthyMs = performance.now() - startedAt;
    const runningAs = readFileSync(`/proc/${String(child.pid)}/status`, 'utf8').match(/^Uid:\s+(\d+)/m)?.[1];
    const base = `http://127.0.0.1:${String(port)}`;
    const ready = await fetch(`${base}/api/health/ready`);
    const page = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
    const html = await page.text();
    const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'rider1@rideway.demo', password: 'demo123' }) });
    const dataOwner = statSync(join(image.dir, image.env.DATA_DIR ?? '/nowhere', 'pglite')).uid;
    process.kill(-(child.pid ?? 0), 'SIGTERM');
    const code = await exited;
    server = undefined;
    const checks = [
      [`HEALTHCHECK passed after ${seconds(healthyMs)}`, true],
      [`runs as uid ${String(runningAs)} (USER ${image.user})`, runningAs === String(uid)],
      [`/api/health/ready ${String(ready.status)}`, ready.status === 200],
      [`/ serves the web app (${String(page.status)})`, page.status === 200 && html.includes('<div id="root"')],
      [`demo sign-in ${String(login.status)}`, login.status === 200],
      [`DATA_DIR's database belongs to uid ${String(dataOwner)}`, dataOwner === uid],
      [`SIGTERM: exit ${String(code)}`, code === 0],
    ];
    console.log('\nRun of the image:');
    for (const [label, ok] of checks) console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${String(label)}`);
    console.log('\nTimings:');
    for (const { step, ms } of timings.filter((timing) => timing.ms > 500)) console.log(`  ${seconds(ms).padStart(8)}  ${step}`);
    console.log(`  ${seconds(performance.now() - started).padStart(8)}  in all`);
    console.log(`\nimage size above node:${globalArgs.NODE_VERSION ?? '?'}-bookworm-slim: ${mb(imageSize)} (${String(imageSize)} bytes)`);
    if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
  } finally {
    if (server?.pid && server.exitCode === null) {
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    if (keep) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((/** @type {unknown} */ error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

