// Headless Chromium for the browser tests: Debian's binary, two flavours of flags, and one browser per
// flavour shared by every test file when the runner (scripts/test.ts) started them, so that a suite pays
// for two launches instead of one per file. Page waits are generous and say what they waited for: a slow
// machine makes a test slower, never red.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserServer, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests skip (for `test(..., { skip })`), or false where Chromium is installed. */
export const chromiumMissing: string | false = existsSync(CHROMIUM)
    ? false
    : `${CHROMIUM} is missing (CI installs Debian's chromium from .ci/apt-packages; locally: apt-get install chromium)`;

/** 'plain': no GPU at all (Canvas 2D in software); 'webgl': WebGL2 through SwiftShader, without a GPU. */
export type Flavour = 'plain' | 'webgl';

// Without the background-networking flags Chromium keeps trying hosts this closed network refuses.
const COMMON = [
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic'
];
const FLAGS: Record<Flavour, string[]> = {
    plain: ['--disable-gpu', ...COMMON],
    webgl: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', ...COMMON]
};
const ENV: Record<Flavour, string> = { plain: 'HITMASK_CHROMIUM_PLAIN', webgl: 'HITMASK_CHROMIUM_WEBGL' };

/**
 * A browser of the flavour: a connection to the runner's shared one where it started them (closing it
 * closes this file's pages and disconnects), else a browser of this file's own.
 */
export async function openBrowser(flavour: Flavour): Promise<Browser> {
    const endpoint = process.env[ENV[flavour]];
    if (endpoint) return chromium.connect(endpoint);
    return chromium.launch({ executablePath: CHROMIUM, args: FLAGS[flavour] });
}

/** Starts one browser server per flavour; `env` holds what {@link openBrowser} reads in the test processes. */
export async function shareBrowsers(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
    const servers: BrowserServer[] = [];
    const env: Record<string, string> = {};
    try {
        for (const flavour of ['plain', 'webgl'] as const) {
            const s = await chromium.launchServer({ executablePath: CHROMIUM, args: FLAGS[flavour] });
            servers.push(s);
            env[ENV[flavour]] = s.wsEndpoint();
        }
    } catch (e) {
        await Promise.all(servers.map(s => s.close()));
        throw e;
    }
    return {
        env,
        close: async () => {
            await Promise.all(servers.map(s => s.close()));
        }
    };
}

/** How long a page may take to reach a state: HITMASK_PAGE_WAIT_S seconds (default 300), then the wait fails naming what it waited for. */
export const PAGE_WAIT_MS = 1000 * Number(process.env.HITMASK_PAGE_WAIT_S ?? 300);

/**
 * Waits until `predicate` (run in the page, given `arg`) is truthy and returns that value (as JSON): the
 * state that met the condition, where a later read may see a later frame. Past {@link PAGE_WAIT_MS}, an
 * Error that names `what` and the page.
 */
export async function waitFor<T, A = undefined>(
    page: Page,
    what: string,
    predicate: (arg: A) => T,
    arg?: A
): Promise<T> {
    try {
        const handle = await page.waitForFunction(predicate as (arg: unknown) => T, arg as unknown, {
            timeout: PAGE_WAIT_MS
        });
        return (await handle.jsonValue()) as T;
    } catch (e) {
        throw new Error(
            `gave up after ${PAGE_WAIT_MS / 1000} s waiting for ${what} on ${page.url()}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
            { cause: e }
        );
    }
}
