import { chromium } from 'playwright';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell' });
const page = await b.newPage();
await page.setContent(`<ul><li><input type=checkbox><label>buy some cheese</label><button>×</button></li></ul><div><strong>1</strong> item left</div><input value="abc"><select><option>One</option><option selected>Two</option></select><a href="#" aria-current="page">Cur</a><div role=tab aria-selected=true>Tab1</div>`);
console.log(JSON.stringify(await page.ariaSnapshotJSON({ mode: 'ai' }), null, 1));
await b.close();
