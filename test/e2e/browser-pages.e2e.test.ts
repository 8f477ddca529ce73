/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import {
  axeViolations,
  changeAfter,
  descriptionOf,
  enterValue,
  hasChromium,
  keepScreenshot,
  signIn,
  useSignedInPage,
  watchChanges,
  WINDOW_ANSWERS,
} from '../support/browser.js';
import { bearer } from '../support/factories.js';
import { DOOR_DIR, uploadModel, zipFolder } from '../support/model.factories.js';

const WINDOW = WINDOW_ANSWERS;
/** The screenshot that becomes docs/configurator.png (scripts/docs-screenshot.mjs). */
const DOCS_SCREENSHOT = 'configurator-offer';

describe.skipIf(!hasChromium)('the configure and cart pages in headless Chromium', () => {
  const signed = useSignedInPage();

  it('configures the window to a valid line and adds it to the cart at the price the API gives', async () => {
    const api = await signed.world.server.http
      .post('/v1/carts/preview')
      .set(bearer(signed.world.admin.token))
      .send({
        model_id: signed.world.window.id,
        company_id: signed.world.company.id,
        questions: WINDOW,
      });
    expect(api.status).toBe(200);
    expect(api.body.data.valid).toBe(true);
    const apiTotal = api.body.data.pricing.total as string;
    // The page asks for the compact view (docs/adr/0224), compressed as the browser negotiates.
    const views: Array<string | null> = [];
    const encodings: Array<string | undefined> = [];
    const isPreview = (url: string) => new URL(url).pathname === '/v1/carts/preview';
    signed.page.on('request', (request) => {
      if (isPreview(request.url())) views.push(new URL(request.url()).searchParams.get('view'));
    });
    signed.page.on('response', (response) => {
      if (isPreview(response.url())) encodings.push(response.headers()['content-encoding']);
    });

    // Every question type the window has: integers, choices (one with a default), a multi-choice.
    await enterValue(signed.page, 'Width (mm)', '1200');
    await enterValue(signed.page, 'Height (mm)', '1000');
    await changeAfter(signed.page, () => signed.page.getByLabel('Aluminium').check());
    const last = await changeAfter(signed.page, () => signed.page.getByLabel('White').check());
    expect(last).toEqual({ valid: true, total: apiTotal });
    expect(views.length).toBeGreaterThanOrEqual(4);
    expect(views.every((view) => view === 'compact')).toBe(true);
    expect(encodings.every((encoding) => encoding === 'br' || encoding === 'gzip')).toBe(true);

    const total = signed.page.locator('table.price tr.total td');
    expect(await total.textContent()).toBe(apiTotal);
    expect(await signed.page.locator('.ok').textContent()).toContain('complete and valid');
    // The BOM tree: the aluminium profile and the hardware kit with its children.
    const bom = signed.page.getByRole('tree', { name: 'Bill of materials' });
    expect(await bom.textContent()).toContain('PRF-ALU-60');
    expect(await bom.locator('[role=group] li').count()).toBe(2);
    // Glazing came from its default, marked so.
    expect(await signed.page.locator('fieldset[data-key=glazing] .mark').textContent()).toBe(
      'default',
    );
    // The remaining configurations: one (every finite question answered or defaulted).
    expect(await signed.page.getByTestId('configurations').textContent()).toMatch(
      /configurations? remain/,
    );

    await signed.page.getByRole('button', { name: 'Add to cart' }).click();
    const notice = signed.page.getByRole('status');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(`EUR ${apiTotal}`);

    await signed.page.getByRole('button', { name: 'Cart', exact: true }).click();
    const line = signed.page.locator('li.line').first();
    await line.waitFor();
    expect(await line.textContent()).toContain('Frame material: Aluminium');
    const cart = await signed.world.server.http
      .get('/v1/carts/default')
      .set(bearer(signed.world.admin.token));
    const detail = await signed.world.server.http
      .get(`/v1/carts/${cart.body.data.cart_id}`)
      .set(bearer(signed.world.admin.token));
    const stored = detail.body.data.total as string;
    expect(await signed.page.getByTestId('cart-total').textContent()).toContain(stored);

    // Remove a line: the signed.page shows the API's updated cart.
    const before = await signed.page.locator('li.line').count();
    await signed.page
      .getByRole('button', { name: new RegExp(`^Remove Casement window`) })
      .first()
      .click();
    await signed.page.waitForFunction(
      (n) =>
        document
          .querySelector('cfg-app')
          ?.shadowRoot?.querySelector('cfg-cart')
          ?.shadowRoot?.querySelectorAll('li.line').length === n,
      before - 1,
    );
  });

  it('shows an unavailable option disabled or marked, with its reason announced', async () => {
    await changeAfter(signed.page, () => signed.page.getByLabel('Wood').check());
    // Anthracite is not made for wood (the frame_colors table): the rule's message is the reason.
    const reason = await descriptionOf(signed.page, 'color--anthracite');
    expect(reason).toContain('This colour is not made for this frame');
    expect(reason).toContain('Conflicts with your answer to Frame material');
    expect(await signed.page.locator('#color--anthracite').isChecked()).toBe(false);
    // Wood shows the engraving (a text question, visible_if): typed, debounced, then evaluated.
    await changeAfter(signed.page, () =>
      signed.page.getByLabel('Engraving').pressSequentially('Fam. Jansen'),
    );
    expect(await signed.page.getByLabel('Engraving').inputValue()).toBe('Fam. Jansen');
    expect(await signed.page.getByLabel('Engraving').getAttribute('maxlength')).toBe('20');
  });

  it('shows conflicting answers as one message naming both answers and the rule', async () => {
    const page = signed.page;
    // PVC is the frame's (soft) default: answered by the user it is a hard answer.
    await changeAfter(page, () => page.getByLabel('Aluminium').check());
    await changeAfter(page, () => page.getByLabel('PVC').check());
    await enterValue(page, 'Width (mm)', '2000');
    const conflict = page.locator('ul.errors li.conflict');
    await conflict.waitFor();
    expect(await conflict.count()).toBe(1);
    expect((await conflict.textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      'Your answers to Width (2000) and Frame material (PVC) cannot be combined: ' +
        'PVC frames are at most 1800 mm wide. Change one of them.',
    );
    // A colour no answer excludes by itself is blocked by the conflict, and says so.
    expect(await descriptionOf(page, 'color--white')).toContain('your other answers conflict');
    // The rule's failure is that same cause: not a second error.
    expect(await page.locator('ul.errors li').allTextContents()).not.toContainEqual(
      expect.stringContaining('rules.max_pvc_width'),
    );
  });

  it('resolves a conflict through the offer: the nearest valid configuration, the option chosen', async () => {
    const page = signed.page;
    await enterValue(page, 'Width (mm)', '1200');
    await enterValue(page, 'Height (mm)', '1000');
    await changeAfter(page, () => page.getByLabel('Wood').check());
    await page.getByLabel('Anthracite grey').click();
    const offer = page.getByRole('alert');
    // The offer names the change the pick needs, once the API has found it.
    await offer.getByText(/we will .*Frame material/).waitFor();
    expect(await offer.textContent()).toContain('Choose “Anthracite grey”');
    // The README's picture of the configure page (scripts/docs-screenshot.mjs copies it to docs/).
    await page.setViewportSize({ width: 1200, height: 800 });
    await keepScreenshot(page, DOCS_SCREENSHOT);
    // Nothing is chosen before the offer is taken.
    expect(await page.locator('#color--anthracite').isChecked()).toBe(false);
    await changeAfter(page, () =>
      page.getByRole('button', { name: /^Choose “Anthracite grey”/ }).click(),
    );
    expect(await page.locator('#color--anthracite').isChecked()).toBe(true);
    // The frame is no longer wood: one that goes with anthracite.
    expect(await page.locator('#frame--wood').isChecked()).toBe(false);
  });

  it('renders a boolean question and the layered images of a zip model, from their signed URLs', async () => {
    const door = await uploadModel(
      signed.world.server,
      signed.world.supplierId,
      signed.world.admin.token,
      await zipFolder(DOOR_DIR),
    );
    await signed.page.reload();
    await signIn(signed.page, signed.world.server.baseUrl);
    await watchChanges(signed.page);
    await changeAfter(signed.page, () =>
      signed.page.getByLabel('Model').selectOption(String(door.id)),
    );
    const images = signed.page.locator('figure.images img');
    await images.first().waitFor();
    expect(await images.count()).toBe(1);
    await changeAfter(signed.page, () => signed.page.getByLabel('Yes').check());
    await signed.page.waitForFunction(() => {
      const root = document
        .querySelector('cfg-app')
        ?.shadowRoot?.querySelector('product-configurator')?.shadowRoot;
      const shown = [...(root?.querySelectorAll('figure.images img') ?? [])] as HTMLImageElement[];
      return shown.length === 2 && shown.every((img) => img.complete && img.naturalWidth > 0);
    });
    // Plain <img src> of the signed URLs: no Authorization header, so none is needed.
    const sources = await images.evaluateAll((all) =>
      all.map((img) => (img as HTMLImageElement).src),
    );
    const signedUrl = `${signed.world.server.baseUrl}/v1/assets/`;
    expect(sources.every((src) => src.startsWith(signedUrl) && src.includes('signature='))).toBe(
      true,
    );
    expect(await images.evaluateAll((all) => all.map((img) => img.getAttribute('alt')))).toEqual([
      'Door',
      'Glass panel',
    ]);
  });

  it('keeps what the user types while an older preview answers (a slow network)', async () => {
    // By path: the page's previews carry `?view=compact`, which a glob would not match.
    const previews = (url: URL) => url.pathname === '/v1/carts/preview';
    let delayed = 0;
    await signed.page.route(previews, async (route) => {
      delayed++;
      await new Promise((resolve) => setTimeout(resolve, 150));
      await route.continue();
    });
    const width = signed.page.getByLabel('Width (mm)');
    await width.pressSequentially('12');
    // The debounce (300 ms) has sent "12"; its answer comes after "00" is typed, before the
    // debounce sends "1200".
    await signed.page.waitForTimeout(350);
    await changeAfter(signed.page, () => width.pressSequentially('00'));
    expect(await width.inputValue()).toBe('1200');
    await changeAfter(signed.page, () => signed.page.keyboard.press('Tab'));
    expect(await width.inputValue()).toBe('1200');
    expect(delayed).toBeGreaterThan(1);
    await signed.page.unroute(previews);
  });

  /** The focused element, through shadow roots: its id, or its text for a button. */
  async function focused(): Promise<string> {
    return signed.page.evaluate(() => {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active?.id || active?.textContent?.trim() || '';
    });
  }

  /** Presses Tab until the focused element is `target` (an id or a button's text). */
  async function tabTo(target: string | RegExp): Promise<void> {
    for (let i = 0; i < 40; i++) {
      await signed.page.keyboard.press('Tab');
      const now = await focused();
      if (typeof target === 'string' ? now === target : target.test(now)) return;
    }
    throw new Error(`Tab never reached ${String(target)}`);
  }

  it('can be configured and added to the cart with the keyboard alone', async () => {
    await tabTo('width');
    await changeAfter(signed.page, () =>
      signed.page.keyboard.type('1200').then(() => signed.page.keyboard.press('Tab')),
    );
    expect(await focused()).toBe('height');
    await changeAfter(signed.page, () =>
      signed.page.keyboard.type('1000').then(() => signed.page.keyboard.press('Tab')),
    );
    // In the frame's radio group, on its default (PVC): the arrow key chooses Aluminium.
    expect(await focused()).toBe('frame--pvc');
    await changeAfter(signed.page, () => signed.page.keyboard.press('ArrowDown'));
    expect(await focused()).toBe('frame--alu');
    await tabTo(/^color--/);
    const last = await changeAfter(signed.page, () => signed.page.keyboard.press('Space'));
    expect(last.valid).toBe(true);
    await tabTo('Add to cart');
    await signed.page.keyboard.press('Enter');
    await signed.page.getByRole('status').waitFor();
    expect(await signed.page.getByRole('status').textContent()).toContain(`EUR ${last.total}`);
  });

  it('shows the labels in the chosen language', async () => {
    await signed.page.getByLabel('Language').fill('nl');
    await changeAfter(signed.page, () => signed.page.keyboard.press('Tab'));
    await signed.page.getByLabel('Breedte (mm)').waitFor();
    expect(await signed.page.locator('fieldset[data-key=frame] legend').textContent()).toContain(
      'Kozijnmateriaal',
    );
    expect(await signed.page.getByLabel('Hout').count()).toBe(1);
  });

  it('has no axe-core violations (none serious or critical, nor milder) on configure (with an offer), cart, workbench and sign-in', async () => {
    await changeAfter(signed.page, () => signed.page.getByLabel('Wood').check());
    await signed.page.getByLabel('Anthracite grey').click();
    await signed.page.getByRole('alert').waitFor();
    expect(await axeViolations(signed.page)).toEqual([]);
    await signed.page.getByRole('button', { name: 'Cart', exact: true }).click();
    await signed.page.getByRole('heading', { name: /^Cart/ }).waitFor();
    expect(await axeViolations(signed.page)).toEqual([]);
    await signed.page.getByRole('button', { name: 'Model workbench' }).click();
    await signed.page.locator('#file:enabled').waitFor({ state: 'attached' });
    expect(await axeViolations(signed.page)).toEqual([]);
    await signed.page.getByRole('button', { name: 'Sign out' }).click();
    await signed.page.getByLabel('Email').waitFor();
    expect(await axeViolations(signed.page)).toEqual([]);
  });
});
