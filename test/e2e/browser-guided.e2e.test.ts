/// <reference lib="dom" />
import { beforeAll, describe, expect, it } from 'vitest';
import {
  changeAfter,
  descriptionOf,
  hasChromium,
  signIn,
  useSignedInPage,
  watchChanges,
} from '../support/browser.js';
import { bearer } from '../support/factories.js';
import { answers, deskModel, deskV2 } from '../support/guided.factories.js';
import { sendModel, uploadModel } from '../support/model.factories.js';

type Line = Record<string, any>;

/** A text as read: runs of white space (template indentation) as one space. */
const squashed = (text: string | null) => (text ?? '').replace(/\s+/g, ' ');

/** Guided configuration in the pages: offers by the nearest valid configuration, moved lines, prices. */
describe.skipIf(!hasChromium)('guided configuration in headless Chromium', () => {
  const signed = useSignedInPage();
  const desk = deskModel();
  let deskId: number;

  const api = () => signed.world.server.http;
  const admin = () => bearer(signed.world.admin.token);
  const preview = async (questions: Record<string, unknown>) =>
    (
      await api()
        .post('/v1/carts/preview')
        .set(admin())
        .send({ model_id: deskId, company_id: signed.world.company.id, questions })
    ).body.data as Line;
  const openDesk = () =>
    changeAfter(signed.page, () => signed.page.getByLabel('Model').selectOption(String(deskId)));

  beforeAll(async () => {
    const { server, supplierId, admin: user } = signed.world;
    deskId = (await uploadModel(server, supplierId, user.token, desk)).id;
  });

  it('shows what each option leads to and the admissible range of a number, as the API says', async () => {
    await openDesk();
    await changeAfter(signed.page, () => signed.page.getByLabel('Small').check());
    const line = await preview(answers({ size: 's' }));
    const pine = (line.questions[1].options as Line[]).find((o) => o.key === 'pine')!;
    expect(await signed.page.locator('label[for="top--pine"]').textContent()).toContain(
      `from EUR ${pine.price_from}`,
    );
    expect(await descriptionOf(signed.page, 'legs')).toContain(
      'Possible with your other answers: 2–4.',
    );
    expect(squashed(await signed.page.getByTestId('price-range').textContent())).toContain(
      `EUR ${line.price_range.min} – ${line.price_range.max}`,
    );
  });

  it('offers the nearest valid configuration for an unavailable option, taken in one click', async () => {
    await openDesk();
    await changeAfter(signed.page, () => signed.page.getByLabel('Small').check());
    await signed.page.getByLabel('Glass').click();
    const offer = signed.page.getByRole('alert');
    await offer.getByText('we will change Size from “Small” to “Large”').waitFor();
    // Nothing changes before the offer is taken.
    expect(await signed.page.locator('#top--glass').isChecked()).toBe(false);
    const taken = await changeAfter(signed.page, () =>
      signed.page.getByRole('button', { name: /^Choose “Glass”/ }).click(),
    );
    const api = await preview(answers({ size: 'l', top: 'glass' }));
    expect(taken).toEqual({ valid: true, total: api.pricing.total });
    expect(await signed.page.locator('#top--glass').isChecked()).toBe(true);
    expect(await signed.page.locator('#size--l').isChecked()).toBe(true);
  });

  it('completes a configuration with the cheapest choices', async () => {
    await openDesk();
    const completed = await changeAfter(signed.page, () =>
      signed.page.getByRole('button', { name: 'Complete with the cheapest choices' }).click(),
    );
    expect(completed).toEqual({ valid: true, total: '120.00' });
    expect(await signed.page.locator('#top--pine').isChecked()).toBe(true);
  });

  it('adds only what it calls valid: a number typed just before "Add to cart" is previewed first', async () => {
    await openDesk();
    const complete = await changeAfter(signed.page, () =>
      signed.page.getByRole('button', { name: 'Complete with the cheapest choices' }).click(),
    );
    expect(complete.valid).toBe(true);
    const adds: string[] = [];
    signed.page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/v1/carts')
        adds.push(request.url());
    });
    const legs = await signed.page.locator('#legs').elementHandle();
    const add = await signed.page.getByRole('button', { name: 'Add to cart' }).elementHandle();
    // Six legs do not fit a small desk. Typed and "Add to cart" in one task: the click comes
    // while the typing pause still holds the preview back, the shown line still valid.
    const shown = await changeAfter(signed.page, () =>
      signed.page.evaluate(
        ([input, button]) => {
          (input as HTMLInputElement).value = '6';
          input!.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
          (button as HTMLButtonElement).click();
        },
        [legs, add] as const,
      ),
    );
    expect(shown.valid).toBe(false);
    expect(adds).toEqual([]);
    expect(await signed.page.getByText('The configuration is complete and valid.').count()).toBe(0);
    expect(
      await signed.page.getByText('This many legs do not fit this size').count(),
    ).toBeGreaterThan(0);
  }, 120_000);

  it('describes the model again when a click answers from a version uploaded since it opened', async () => {
    const { server, supplierId, admin: user } = signed.world;
    const model = deskModel();
    const id = (await uploadModel(server, supplierId, user.token, model)).id;
    // Signed in again: the list of models is read on sign-in.
    await signIn(signed.page, server.baseUrl);
    await watchChanges(signed.page);
    await changeAfter(signed.page, () => signed.page.getByLabel('Model').selectOption(String(id)));
    expect(await signed.page.getByLabel('Pine').count()).toBe(1);
    const v2 = await sendModel(server, 'put', `/v1/models/${id}`, user.token, deskV2(model));
    expect(v2.status).toBe(200);
    // The compact line is of version 2: the page fetches its description to show it.
    await changeAfter(signed.page, () => signed.page.getByLabel('Small').check());
    await signed.page.getByLabel('Walnut').waitFor();
    expect(await signed.page.getByLabel('Pine').count()).toBe(0);
    expect(await signed.page.locator('#size--s').isChecked()).toBe(true);
  }, 120_000);

  it('reopens a line whose model moved on at the newer version, shows the changes, and saves there', async () => {
    const { server, company } = signed.world;
    const added = await server.http
      .post('/v1/carts')
      .set(admin())
      .send({
        model_id: deskId,
        company_id: company.id,
        questions: answers({ size: 's', top: 'pine' }),
      });
    expect(added.status).toBe(201);
    const lineId = added.body.data.id as number;
    const cartId = added.body.data.cart_id as string;
    const v2 = await sendModel(
      server,
      'put',
      `/v1/models/${deskId}`,
      signed.world.admin.token,
      deskV2(desk),
    );
    expect(v2.status).toBe(200);

    await signed.page.getByRole('button', { name: 'Cart', exact: true }).click();
    await signed.page.locator(`li.line[data-line="${lineId}"]`).waitFor();
    await changeAfter(signed.page, () =>
      signed.page
        .locator(`li.line[data-line="${lineId}"]`)
        .getByRole('button', { name: /^Reconfigure/ })
        .click(),
    );
    const moved = signed.page.getByTestId('version-move');
    await moved.waitFor();
    expect(squashed(await moved.textContent())).toContain(
      'we will change Top from “pine” to “Oak”',
    );
    // The preview is on version 2, as the save will be: it calls valid what the save takes.
    expect(await signed.page.locator('#top--oak').isChecked()).toBe(true);
    await signed.page.getByRole('button', { name: 'Save changes' }).click();
    await signed.page.getByRole('heading', { name: /^Cart/ }).waitFor();
    const cart = await server.http.get(`/v1/carts/${cartId}`).set(admin());
    const line = (cart.body.data.lines as Line[]).find((l) => l.id === lineId)!;
    expect(line).toMatchObject({ version_number: 2, total: '160.00', latest_version_number: null });
  }, 120_000);
});
