import { chromium } from 'playwright';
import { todoMvcSuite } from '/work/main/test/corpus/todomvc.js';
import { runStep } from '/work/main/src/browser/step-runner.js';
import { createHostAllowlist } from '/work/main/src/browser/host-allowlist.js';
const app = await todoMvcSuite.start();
const b = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell' });
const page = await b.newPage();
await page.goto(app.url);
const ctx = { baseUrl: app.url, timeoutMs: 3000, testValue: () => undefined, allowlist: createHostAllowlist(app.url, []) } as any;
const steps: any[] = [
 {action:'fill', description:'x', target:{by:'description', role:'textbox', name:'new todo', exact:false}, value:{kind:'literal', text:'buy some cheese'}},
 {action:'press', description:'x', key:'Enter'},
 {action:'check', description:'x', target:{by:'role', role:'checkbox', name:'', exact:false, within:{text:'buy some cheese'}}, checked:true},
];
for (const s of steps) console.log(JSON.stringify(await runStep(page, s, ctx)));
console.log(await page.ariaSnapshot({ mode: 'ai' } as any));
await b.close(); await app.close();
