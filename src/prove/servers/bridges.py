"""Where PROVE's own servers meet: the bridges between their worlds (see `prove.env.bridges`).

Declared once, here, as data; registered through the `prove.bridges` entry point. In an episode
of several of these servers the target rows take the source rows' values, so:

- the people of the CRM are the contacts of the mailbox and outside people of the calendar
  directory (same name, same address, and there their title and their account's company):
  three servers, one person;
- without the CRM, the mailbox's contacts are the calendar's people;
- the restaurants of the delivery app are restaurants on the map in Portland (same name, same cuisine);
- the payees of the budget's bills are payees of the bank (same name).
"""

from __future__ import annotations

from prove.env.bridges import Bridge

__all__ = ["BRIDGES"]

BRIDGES = (
    Bridge("crm.contact", "email.contact", (("full_name", "name"), ("email", "email")),
           note="a CRM contact is a contact in the mailbox"),
    Bridge("crm.contact", "calendar.person", (("full_name", "name"), ("email", "email")),
           # (a customer is no colleague: an outside person of the directory, at their account's company)
           target_where="is_me = 0 AND is_colleague = 0",
           derived=(("title", "job_title"),
                    ("(SELECT name FROM accounts WHERE accounts.account_id = contacts.account_id)", "company")),
           note="a CRM contact is an outside person in the calendar directory"),
    Bridge("email.contact", "calendar.person", (("name", "name"), ("email", "email")),
           target_where="is_me = 0", note="a mailbox contact is a person in the calendar directory"),
    Bridge("food_delivery.restaurant", "maps.place", (("name", "name"), ("cuisine", "cuisine")),
           # (the delivery app serves Portland: its restaurants are Portland's on the map)
           target_where="category = 'restaurant' AND city_id = (SELECT city_id FROM cities WHERE name = 'Portland')",
           note="a restaurant of the delivery app is a place on the map"),
    Bridge("budget.bill", "banking.payee", (("payee", "name"),),
           source_where="status = 'active'", target_where="kind = 'business'",
           note="a bill's payee in the budget is a payee of the bank"),
)
