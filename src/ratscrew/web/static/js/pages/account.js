// @ts-check
// The account pages: sign in (#/sign-in), sign up (#/sign-up), and the account itself (#/account: sign out,
// change the password, delete the account). Playing needs none of them.
import { announce, h } from "../dom.js";
import { t } from "../i18n.js";
import { useStyles } from "../styles.js";
import { accountRequest, accountState, loadAccount } from "../account.js";
import { LIMITS, checkNew, clearAll, formError, nameField, passwordField, showRefusal } from "./account/fields.js";
/** @import { PageContext } from "../types.js" */
/** @import { Field } from "./account/fields.js" */

// Set once an account is deleted, so the next page can say so.
let deleted = false;

/**
 * A form that sends its fields to an account route, says a refusal beside the field at fault, and calls
 * `done` once the server agreed.
 * @param {{ id: string, fields: Record<string, Field>, submit: string, route: string,
 *   check?: () => boolean, body: () => Record<string, string>, done: () => void, danger?: boolean }} spec
 */
function accountForm(spec) {
  const box = formError(`${spec.id}-error`);
  const button = h("button", { type: "submit", id: `${spec.id}-submit`, class: spec.danger ? "danger" : null }, spec.submit);
  const form = h("form", { id: spec.id, class: "account-form", novalidate: true },
    Object.values(spec.fields).map((f) => f.wrap), box, button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearAll(spec.fields, box);
    if (spec.check && !spec.check()) return;
    button.disabled = true;
    form.setAttribute("aria-busy", "true");
    try {
      await accountRequest(spec.route, spec.body());
      spec.done();
    } catch (error) {
      showRefusal(error, spec.fields, box);
    } finally {
      button.disabled = false;
      form.removeAttribute("aria-busy");
    }
  });
  return form;
}

/**
 * @param {PageContext} ctx
 * @param {string} [notice] a line to show above the form (the account was deleted)
 */
function signIn(ctx, notice) {
  const fields = { name: nameField("signin-name", false), password: passwordField("signin-password", t("account.password"), "current-password") };
  return h("section", { class: "account panel", "aria-labelledby": "account-title" },
    h("h1", { id: "account-title" }, t("account.sign_in.title")),
    notice ? h("p", { class: "account-notice", role: "status" }, notice) : null,
    h("p", { class: "lead" }, t("account.lead")),
    accountForm({
      id: "signin-form", fields, submit: t("account.sign_in.submit"), route: "sign-in",
      body: () => ({ name: fields.name.input.value.trim(), password: fields.password.input.value }),
      done: () => ctx.navigate("#/account"),
    }),
    h("p", {}, t("account.sign_in.no_account"), " ", h("a", { href: "#/sign-up", id: "to-sign-up" }, t("account.sign_up.link"))),
    h("p", {}, h("a", { href: "#/leaderboard", id: "signin-leaderboard" }, t("profile.leaderboard_link"))));
}

/** @param {PageContext} ctx */
function signUp(ctx) {
  const fields = {
    name: nameField("signup-name", true),
    password: passwordField("signup-password", t("account.password"), "new-password", t("account.password_rules", LIMITS)),
    repeat: passwordField("signup-repeat", t("account.repeat"), "new-password"),
  };
  return h("section", { class: "account panel", "aria-labelledby": "account-title" },
    h("h1", { id: "account-title" }, t("account.sign_up.title")),
    h("p", { class: "lead" }, t("account.lead")),
    h("p", { class: "hint" }, t("account.sign_up.no_reset")),
    accountForm({
      id: "signup-form", fields, submit: t("account.sign_up.submit"), route: "sign-up",
      check: () => checkNew(fields),
      body: () => ({ name: fields.name.input.value.trim(), password: fields.password.input.value }),
      done: () => ctx.navigate("#/account"),
    }),
    h("p", {}, t("account.sign_up.have_account"), " ", h("a", { href: "#/sign-in", id: "to-sign-in" }, t("account.sign_in.link"))));
}

/**
 * @param {PageContext} ctx
 * @param {string} name
 */
function accountPage(ctx, name) {
  const status = h("p", { id: "account-status", class: "account-notice", role: "status" });
  const change = {
    current: passwordField("change-current", t("account.current"), "current-password"),
    password: passwordField("change-password", t("account.new_password"), "new-password", t("account.password_rules", LIMITS)),
    repeat: passwordField("change-repeat", t("account.repeat"), "new-password"),
  };
  const remove = { password: passwordField("delete-password", t("account.password"), "current-password") };
  const signOutBox = formError("signout-error");
  const signOut = h("button", { type: "button", id: "sign-out", class: "secondary" }, t("account.sign_out"));
  signOut.addEventListener("click", async () => {
    signOutBox.hidden = true;
    try {
      await accountRequest("sign-out", {});
      ctx.navigate("#/sign-in");
    } catch (error) {
      showRefusal(error, {}, signOutBox);
    }
  });
  return h("section", { class: "account", "aria-labelledby": "account-title" },
    h("h1", { id: "account-title" }, t("account.title")),
    h("div", { class: "panel account-part" },
      h("p", { id: "account-name" }, t("account.signed_in_as", { name })),
      h("ul", { class: "account-links" },
        h("li", {}, h("a", { href: `#/players/${encodeURIComponent(name)}`, id: "account-profile" }, t("profile.yours"))),
        h("li", {}, h("a", { href: "#/leaderboard", id: "account-leaderboard" }, t("profile.leaderboard_link")))),
      status,
      signOut, signOutBox),
    h("section", { class: "panel account-part", "aria-labelledby": "change-title" },
      h("h2", { id: "change-title" }, t("account.change.title")),
      accountForm({
        id: "change-form", fields: change, submit: t("account.change.submit"), route: "password",
        check: () => checkNew(change),
        body: () => ({ current: change.current.input.value, password: change.password.input.value }),
        done: () => {
          for (const one of Object.values(change)) one.input.value = "";
          status.textContent = t("account.change.done");
          announce(t("account.change.done"));
        },
      })),
    h("section", { class: "panel account-part account-danger", "aria-labelledby": "delete-title" },
      h("h2", { id: "delete-title" }, t("account.delete.title")),
      h("p", {}, t("account.delete.text")),
      accountForm({
        id: "delete-form", fields: remove, submit: t("account.delete.submit"), route: "delete", danger: true,
        body: () => ({ password: remove.password.input.value }),
        done: () => { deleted = true; ctx.navigate("#/sign-up"); },
      })));
}

/**
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 */
export async function render(view, ctx) {
  await useStyles("account");
  const { account } = await loadAccount();
  const asked = ctx.params[0];
  let page;
  if (account && asked !== "account") {
    ctx.navigate("#/account"); // signed in already: the account page
    return;
  }
  if (!account && asked === "account") page = signIn(ctx);
  else if (account) page = accountPage(ctx, account.name);
  else if (asked === "sign-up") page = signUp(ctx);
  else page = signIn(ctx);
  if (deleted && !accountState().account) {
    deleted = false;
    page.insertBefore(h("p", { class: "account-notice", id: "account-deleted", role: "status" }, t("account.delete.done")), page.children[1]);
  }
  view.append(page);
}
