/**
 * The checkout pages' stylesheet, served from this origin: the security policy's style-src is
 * helmet's default ('self' https: 'unsafe-inline'), and a file of our own keeps the pages free of
 * inline styles, so a stricter policy later needs no change here. The web app's colours
 * (apps/web/src/app/theme.ts); one column, full width on a phone and a card from 34rem up; logical
 * properties, so Arabic reads right to left.
 */
export const CHECKOUT_STYLE_PATH = '/api/payments/checkout.css';

export const CHECKOUT_STYLE = `*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; min-height: 100vh; background: #eef2ef; color: #1c2733; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Arabic", sans-serif; }
.brand { background: #1b5e20; color: #fff; padding: 0.9rem 1.25rem; font-size: 1.15rem; font-weight: 700; }
.brand span { display: block; max-width: 30rem; margin-inline: auto; overflow-wrap: anywhere; }
.checkout { max-width: 30rem; margin: 2rem auto; padding: 1.75rem 1.5rem; background: #fff; border-radius: 12px; box-shadow: 0 1px 3px rgb(0 0 0 / 12%), 0 6px 20px rgb(0 0 0 / 6%); }
h1 { margin: 0 0 1rem; font-size: 1.4rem; line-height: 1.25; }
.summary { margin: 0 0 1.25rem; border: 1px solid #d7dfda; border-radius: 8px; }
.summary div { display: flex; align-items: baseline; justify-content: space-between; gap: 1rem; padding: 0.75rem 1rem; }
.summary div + div { border-block-start: 1px solid #d7dfda; }
.summary dt { color: #4f5b55; }
.summary dd { margin: 0; font-weight: 600; text-align: end; overflow-wrap: anywhere; }
.summary dd.amount { color: #1b5e20; font-size: 1.3rem; font-weight: 700; }
#payment-container { margin-block-end: 1rem; }
#payment-container:empty { display: none; }
.lead { margin: 0 0 1rem; }
.error { margin: 0 0 1rem; padding: 0.75rem 1rem; border: 1px solid #f1b8b1; border-radius: 8px; background: #fdecea; color: #8a1c12; }
.error:empty { display: none; }
form { margin: 0; }
.pay { display: block; width: 100%; min-height: 3rem; padding: 0.75rem 1rem; border: 0; border-radius: 8px; background: #1b5e20; color: #fff; font: inherit; font-size: 1.05rem; font-weight: 700; cursor: pointer; }
.pay:hover { background: #144a18; }
.pay:focus-visible { outline: 3px solid #ffb300; outline-offset: 2px; }
.pay:disabled { opacity: 0.6; cursor: progress; }
.back { display: block; margin-block-start: 0.75rem; padding: 0.6rem; border-radius: 8px; color: #1b5e20; font-weight: 600; text-align: center; }
.back:focus-visible { outline: 3px solid #ffb300; }
.note { margin: 1rem 0 0; color: #4f5b55; font-size: 0.875rem; text-align: center; }
@media (max-width: 34rem) {
  body { background: #fff; }
  .checkout { margin: 0; padding: 1.25rem 1rem 1.5rem; border-radius: 0; box-shadow: none; }
}
`;
