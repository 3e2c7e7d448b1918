// The shop session (tests/fixtures/site): twenty user intents through a
// product list, a cart, a modal, a search and a sign-up form, as
// bench/session.mjs runs them through each MCP server and
// bench/pagediff.mjs through PageDiff.

// within: a quoted name that appears in the block holding the target (the
// product's heading, the region's name); target: `role "name"` as printed in
// the aria snapshot. scope: the region the filtering agent knows it needs.
export const CART = 'complementary "Cart"';
export const STEPS = [
  { label: 'navigate to the shop', act: 'navigate', path: '/index.html' },
  { label: 'add Sencha Kyoto to the cart (list grows)', act: 'click', within: '"Sencha Kyoto"', target: 'button "Add to cart"', scope: CART },
  { label: 'add Jasmine Pearls', act: 'click', within: '"Jasmine Pearls"', target: 'button "Add to cart"', scope: CART },
  { label: 'add Assam Breakfast', act: 'click', within: '"Assam Breakfast"', target: 'button "Add to cart"', scope: CART },
  { label: 'open Quick view (modal)', act: 'click', within: '"Oolong Milk"', target: 'button "Quick view"' },
  { label: 'add from the modal (closes it)', act: 'click', within: '- dialog', target: 'button "Add to cart"', scope: CART },
  { label: 'remove Jasmine Pearls', act: 'click', target: 'button "Remove Jasmine Pearls"', scope: CART },
  { label: 'read the page (nothing changed)', act: 'snapshot' },
  { label: 'checkout (error banner)', act: 'click', target: 'button "Checkout"' },
  { label: 'search "earl" (list filters)', act: 'type', target: 'searchbox "Search teas"', text: 'earl', submit: true },
  { label: 'go to Sign up (navigation)', act: 'click', within: 'navigation "Main"', target: 'link "Sign up"' },
  { label: 'type the name', act: 'type', target: 'textbox "Full name"', text: 'Ada Lovelace' },
  { label: 'type a bad email', act: 'type', target: 'textbox "Email"', text: 'ada@' },
  { label: 'submit (validation errors)', act: 'click', target: 'button "Create account"' },
  { label: 'fix the email', act: 'type', target: 'textbox "Email"', text: 'ada@example.com' },
  { label: 'type a password', act: 'type', target: 'textbox "Password"', text: 'correct horse' },
  { label: 'choose a country', act: 'select', target: 'combobox "Country"', values: ['Japan'] },
  { label: 'accept the terms', act: 'click', target: 'checkbox "I accept the terms"' },
  { label: 'submit (welcome)', act: 'click', target: 'button "Create account"' },
  { label: 'back to the shop', act: 'back' },
];
