"""The food delivery world: one signed-in customer and the restaurants of their city.

`build_world` picks a US city and its neighborhoods, then creates about 36 restaurants of a
dozen cuisines with menus, opening hours, delivery zones, fees and minimum orders; the
customer's saved addresses (Home, Work and one more), saved cards (one of them expired), gift
cards not yet redeemed, promo codes (one already used, one expired, some tied to a cuisine or a
restaurant), favorites, an open cart (in about 4 worlds in 10 with a promo code that fits it
already applied) and about 40 past orders with their items and reviews.

At the epoch (Monday 2026-03-16 09:00) breakfast places are open and most others are not; one
order is out for delivery, one is scheduled for the evening, and last night's dinner is
delivered but not rated yet. Everything random comes from `w.rng` and `w.fake`.

This module also holds the rules the tools share with the world (fees, windows, timings).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from prove.env import WorldBuilder, WorldGen
from prove.env.values import iso

# ----- rules shared with the tools ----------------------------------------------------------------

CONFIRM_MINUTES = 5            # an order can be cancelled until the kitchen starts, this long after placing
SERVICE_FEE_RATE = 0.10        # of the food subtotal...
SERVICE_FEE_MIN = 1.99         # ...but at least this...
SERVICE_FEE_MAX = 9.99         # ...and at most this
TIP_WINDOW_HOURS = 24          # a tip can be changed until this long after delivery
RATING_WINDOW_DAYS = 14        # an order can be rated until this long after delivery
SCHEDULE_MIN_MINUTES = 45      # a scheduled delivery is at least this far ahead...
SCHEDULE_MAX_DAYS = 7          # ...and at most this far
MAX_ADDRESSES = 8
MAX_LINE_QUANTITY = 20
PROMO_ON_CART_SHARE = 0.4      # worlds where the customer already put a fitting promo code on the open cart

# ----- catalogues ---------------------------------------------------------------------------------

# city -> (state, zip prefix, sales tax percent on food, neighborhoods)
CITIES: dict[str, tuple[str, str, float, tuple[str, ...]]] = {
    "New York": ("NY", "100", 8.875, ("Chelsea", "SoHo", "East Village", "Upper West Side", "Harlem",
                                      "Tribeca", "Williamsburg", "Astoria")),
    "Boston": ("MA", "021", 7.0, ("Back Bay", "Beacon Hill", "South End", "North End", "Jamaica Plain",
                                  "Fenway", "Charlestown", "Seaport")),
    "Chicago": ("IL", "606", 10.25, ("Lincoln Park", "Wicker Park", "Logan Square", "West Loop", "Lakeview",
                                     "Hyde Park", "River North", "Pilsen")),
    "Austin": ("TX", "787", 8.25, ("South Congress", "East Austin", "Hyde Park", "Mueller", "Zilker",
                                   "Downtown", "Clarksville", "North Loop")),
    "Denver": ("CO", "802", 8.81, ("LoDo", "Capitol Hill", "Highlands", "RiNo", "Cherry Creek", "Baker",
                                   "Washington Park", "Sloan Lake")),
    "Seattle": ("WA", "981", 10.35, ("Capitol Hill", "Ballard", "Fremont", "Queen Anne", "Belltown",
                                     "Wallingford", "Columbia City", "South Lake Union")),
    "San Francisco": ("CA", "941", 8.625, ("Mission", "Castro", "Hayes Valley", "North Beach", "SoMa",
                                           "Noe Valley", "Inner Richmond", "Marina")),
    "Portland": ("OR", "972", 0.0, ("Pearl District", "Alberta Arts", "Hawthorne", "Sellwood", "Division",
                                    "Nob Hill", "Mississippi", "Kerns")),
    "Philadelphia": ("PA", "191", 8.0, ("Fishtown", "Rittenhouse", "Old City", "Northern Liberties",
                                        "Queen Village", "University City", "Fairmount", "East Passyunk")),
}

# Hours patterns: (opens, closes) every day it opens, and which weekdays it may close.
HOURS = {
    "breakfast": (("07:00", "15:00"), ("07:30", "14:30"), ("06:30", "14:00")),
    "bakery": (("07:00", "18:00"), ("07:30", "17:00")),
    "allday": (("11:00", "22:00"), ("11:30", "21:30"), ("11:00", "23:00")),
    "dinner": (("17:00", "22:30"), ("17:30", "22:00"), ("16:30", "23:00")),
    "late": (("11:00", "23:30"), ("12:00", "23:59")),
}

# item: (category, name, description, price, tags) with tags from 'v' vegetarian, 'vg' vegan,
# 'gf' gluten-free, 's' spicy.
Item = tuple[str, str, str, float, str]

CUISINES: dict[str, dict[str, Any]] = {
    "Pizza": {
        "names": ("{last}'s Pizzeria", "Slice of {hood}", "{hood} Pizza Co.", "Brick Oven Pizza", "Pie Society",
                  "Crust & Co.", "Tony's Coal Fired"),
        "hours": ("allday", "late"), "level": "$", "prep": (12, 22), "minimum": (12, 18),
        "blurb": "Hand-stretched pizzas from a {deg}-degree oven, plus salads and wings.",
        "menu": (
            ("Pizzas", "Margherita Pizza", "San Marzano tomato, fresh mozzarella, basil", 16.0, "v"),
            ("Pizzas", "Pepperoni Pizza", "Cup-and-char pepperoni, mozzarella, oregano", 18.0, ""),
            ("Pizzas", "Hot Honey Soppressata", "Spicy soppressata, mozzarella, chili honey", 20.0, "s"),
            ("Pizzas", "Mushroom & Truffle Pizza", "Roasted mushrooms, fontina, truffle oil", 21.0, "v"),
            ("Pizzas", "Veggie Supreme", "Peppers, onions, olives, mushrooms, mozzarella", 19.0, "v"),
            ("Pizzas", "BBQ Chicken Pizza", "Smoked chicken, red onion, cilantro, BBQ sauce", 20.0, ""),
            ("Pizzas", "Vegan Marinara", "Tomato, garlic, oregano, olive oil, no cheese", 14.0, "v vg"),
            ("Pizzas", "Gluten-Free Margherita", "Margherita on a rice-flour crust", 18.0, "v gf"),
            ("Sides", "Garlic Knots", "Six knots with parmesan and marinara", 7.0, "v"),
            ("Sides", "Buffalo Wings", "Ten wings, blue cheese, celery", 14.0, "s gf"),
            ("Salads", "Caesar Salad", "Romaine, parmesan, croutons, anchovy dressing", 11.0, ""),
            ("Salads", "Arugula Salad", "Arugula, shaved parmesan, lemon vinaigrette", 10.0, "v gf"),
            ("Desserts", "Cannoli", "Two cannoli with ricotta and chocolate chips", 6.0, "v"),
            ("Drinks", "San Pellegrino", "Sparkling water, 500 ml", 3.0, "v vg gf"),
            ("Drinks", "Mexican Coke", "Glass bottle, cane sugar", 3.5, "v vg gf"),
        ),
    },
    "Italian": {
        "names": ("Trattoria {last}", "Osteria {hood}", "Nonna's Kitchen", "Cucina {first}", "La Tavola",
                  "Il Forno", "Via Roma"),
        "hours": ("dinner", "allday"), "level": "$$$", "prep": (18, 30), "minimum": (20, 30),
        "blurb": "Fresh pasta made daily and Roman-style classics.",
        "menu": (
            ("Antipasti", "Burrata", "Burrata, heirloom tomatoes, basil oil, grilled bread", 16.0, "v"),
            ("Antipasti", "Fried Calamari", "Lemon aioli, marinara", 15.0, ""),
            ("Antipasti", "Arancini", "Saffron risotto balls, mozzarella, marinara", 12.0, "v"),
            ("Pasta", "Cacio e Pepe", "Tonnarelli, pecorino, black pepper", 21.0, "v"),
            ("Pasta", "Rigatoni alla Vodka", "Tomato cream, vodka, chili, parmesan", 22.0, "v s"),
            ("Pasta", "Spaghetti Carbonara", "Guanciale, egg yolk, pecorino", 23.0, ""),
            ("Pasta", "Tagliatelle Bolognese", "Slow-cooked beef and pork ragu", 24.0, ""),
            ("Pasta", "Lobster Linguine", "Maine lobster, cherry tomato, chili", 34.0, "s"),
            ("Pasta", "Gluten-Free Penne Pomodoro", "Tomato, basil, olive oil", 19.0, "v vg gf"),
            ("Mains", "Chicken Parmigiana", "Breaded cutlet, mozzarella, spaghetti", 27.0, ""),
            ("Mains", "Branzino", "Whole roasted sea bass, salsa verde, potatoes", 33.0, "gf"),
            ("Desserts", "Tiramisu", "Espresso-soaked ladyfingers, mascarpone", 10.0, "v"),
            ("Desserts", "Panna Cotta", "Vanilla cream, berry compote", 9.0, "v gf"),
            ("Drinks", "Limonata", "Italian sparkling lemonade", 4.0, "v vg gf"),
        ),
    },
    "Japanese": {
        "names": ("Sakura Sushi", "Ramen {last}", "Izakaya {hood}", "Koi Sushi Bar", "Hanami", "Umami House",
                  "Tsuru Sushi"),
        "hours": ("allday", "dinner"), "level": "$$", "prep": (15, 25), "minimum": (15, 25),
        "blurb": "Sushi, hand rolls and tonkotsu ramen.",
        "menu": (
            ("Starters", "Edamame", "Steamed soybeans, sea salt", 6.0, "v vg gf"),
            ("Starters", "Gyoza", "Six pork dumplings, ponzu", 9.0, ""),
            ("Starters", "Miso Soup", "Tofu, wakame, scallion", 4.5, "v"),
            ("Rolls", "California Roll", "Crab, avocado, cucumber", 9.0, ""),
            ("Rolls", "Spicy Tuna Roll", "Tuna, spicy mayo, cucumber", 11.0, "s"),
            ("Rolls", "Salmon Avocado Roll", "Salmon, avocado, sesame", 10.5, "gf"),
            ("Rolls", "Dragon Roll", "Eel, cucumber, avocado, eel sauce", 16.0, ""),
            ("Rolls", "Avocado Cucumber Roll", "Avocado, cucumber, sesame", 8.0, "v vg gf"),
            ("Sushi", "Salmon Nigiri", "Two pieces", 8.0, "gf"),
            ("Sushi", "Chef's Omakase Platter", "Twelve pieces of nigiri and a roll", 42.0, ""),
            ("Ramen", "Tonkotsu Ramen", "Pork broth, chashu, soft egg, nori", 17.0, ""),
            ("Ramen", "Spicy Miso Ramen", "Miso broth, ground pork, chili oil", 17.5, "s"),
            ("Ramen", "Vegetable Shoyu Ramen", "Soy broth, tofu, seasonal vegetables", 16.0, "v vg"),
            ("Mains", "Chicken Teriyaki Bowl", "Grilled chicken, rice, broccoli", 15.0, ""),
            ("Drinks", "Ramune Soda", "Japanese marble soda", 3.5, "v vg gf"),
        ),
    },
    "Chinese": {
        "names": ("Golden Dragon", "Sichuan {hood}", "Jade Garden", "Dumpling House", "Lucky Star Kitchen",
                  "Red Lantern", "Noodle Bar {last}"),
        "hours": ("allday", "late"), "level": "$", "prep": (10, 20), "minimum": (12, 20),
        "blurb": "Hand-pulled noodles, dumplings and Sichuan classics.",
        "menu": (
            ("Dim Sum", "Pork Soup Dumplings", "Six xiao long bao", 11.0, ""),
            ("Dim Sum", "Vegetable Spring Rolls", "Four rolls, sweet chili sauce", 7.0, "v vg"),
            ("Dim Sum", "Scallion Pancake", "Crispy flatbread, soy dip", 7.5, "v vg"),
            ("Mains", "Kung Pao Chicken", "Peanuts, dried chili, Sichuan pepper", 16.0, "s"),
            ("Mains", "Mapo Tofu", "Silken tofu, chili bean sauce", 14.0, "s"),
            ("Mains", "General Tso's Chicken", "Crispy chicken, sweet-spicy glaze", 16.5, "s"),
            ("Mains", "Beef and Broccoli", "Flank steak, oyster sauce", 17.0, ""),
            ("Mains", "Dry-Fried Green Beans", "Garlic, preserved vegetables", 13.0, "v vg gf s"),
            ("Noodles", "Dan Dan Noodles", "Pork, chili oil, sesame paste", 14.0, "s"),
            ("Noodles", "Vegetable Lo Mein", "Egg noodles, cabbage, carrots, mushrooms", 12.5, "v"),
            ("Rice", "Yangzhou Fried Rice", "Shrimp, char siu, egg, peas", 13.0, ""),
            ("Rice", "Steamed Jasmine Rice", "One pint", 2.5, "v vg gf"),
            ("Drinks", "Hong Kong Milk Tea", "Iced", 4.5, "v"),
        ),
    },
    "Thai": {
        "names": ("Thai Orchid", "Bangkok Street Kitchen", "Siam {hood}", "Lotus Thai", "Chiang Mai Noodle",
                  "Basil Leaf Thai"),
        "hours": ("allday",), "level": "$$", "prep": (12, 20), "minimum": (12, 20),
        "blurb": "Street-food favorites and curries, spice level to order.",
        "menu": (
            ("Starters", "Fresh Summer Rolls", "Rice paper, tofu, herbs, peanut sauce", 8.0, "v vg gf"),
            ("Starters", "Chicken Satay", "Four skewers, peanut sauce, cucumber relish", 10.0, "gf"),
            ("Starters", "Tom Yum Soup", "Shrimp, lemongrass, lime, chili", 8.5, "s gf"),
            ("Noodles", "Pad Thai", "Rice noodles, tamarind, peanuts, egg, choice of chicken", 15.0, "gf"),
            ("Noodles", "Pad See Ew", "Wide noodles, Chinese broccoli, soy", 15.0, ""),
            ("Noodles", "Drunken Noodles", "Wide noodles, holy basil, chili", 15.5, "s"),
            ("Curries", "Green Curry", "Coconut milk, eggplant, basil, chicken", 16.0, "s gf"),
            ("Curries", "Massaman Curry", "Beef, potatoes, peanuts", 17.0, "gf"),
            ("Curries", "Panang Tofu Curry", "Tofu, kaffir lime, coconut", 15.0, "v vg gf s"),
            ("Mains", "Basil Chicken (Pad Kra Pao)", "Minced chicken, holy basil, fried egg, rice", 15.0, "s"),
            ("Mains", "Pineapple Fried Rice", "Shrimp, cashews, curry powder", 16.0, ""),
            ("Desserts", "Mango Sticky Rice", "Sweet coconut rice, ripe mango", 8.0, "v vg gf"),
            ("Drinks", "Thai Iced Tea", "Sweetened condensed milk", 4.5, "v gf"),
        ),
    },
    "Indian": {
        "names": ("Taj Palace", "Bombay Spice", "Masala {hood}", "Curry Leaf", "Tandoor House", "Chai & Chaat"),
        "hours": ("allday", "dinner"), "level": "$$", "prep": (15, 25), "minimum": (15, 25),
        "blurb": "North Indian curries from the tandoor and South Indian street food.",
        "menu": (
            ("Starters", "Vegetable Samosas", "Two pastries, potato and peas, tamarind chutney", 7.0, "v vg"),
            ("Starters", "Onion Bhaji", "Chickpea-battered onion fritters", 7.0, "v vg gf"),
            ("Starters", "Chicken 65", "Fried chicken, curry leaves, chili", 11.0, "s gf"),
            ("Curries", "Chicken Tikka Masala", "Tandoori chicken, tomato cream", 19.0, "gf"),
            ("Curries", "Butter Chicken", "Makhani sauce, fenugreek", 19.0, "gf"),
            ("Curries", "Lamb Vindaloo", "Goan chili-vinegar curry", 22.0, "s gf"),
            ("Curries", "Palak Paneer", "Spinach, cottage cheese", 16.0, "v gf"),
            ("Curries", "Chana Masala", "Chickpeas, tomato, garam masala", 14.0, "v vg gf"),
            ("Curries", "Dal Makhani", "Black lentils, butter, cream", 14.0, "v gf"),
            ("Tandoor", "Tandoori Chicken", "Half chicken, yogurt marinade", 20.0, "gf"),
            ("Breads", "Garlic Naan", "From the tandoor", 4.5, "v"),
            ("Rice", "Lamb Biryani", "Basmati, saffron, raita", 23.0, "gf"),
            ("Rice", "Basmati Rice", "Steamed, with cumin", 3.5, "v vg gf"),
            ("Drinks", "Mango Lassi", "Yogurt, mango, cardamom", 5.0, "v gf"),
        ),
    },
    "Mexican": {
        "names": ("Taqueria {last}", "La Cocina de {first}", "El Camino", "Casa Verde", "Tacos {hood}",
                  "Burrito Loco", "Cantina Azul"),
        "hours": ("allday", "late"), "level": "$", "prep": (10, 18), "minimum": (10, 18),
        "blurb": "Tacos al pastor off the trompo, burritos and fresh salsas.",
        "menu": (
            ("Tacos", "Al Pastor Tacos", "Three tacos, pineapple, onion, cilantro", 12.0, "gf"),
            ("Tacos", "Carne Asada Tacos", "Three tacos, grilled steak, salsa verde", 13.0, "gf"),
            ("Tacos", "Baja Fish Tacos", "Beer-battered cod, cabbage, chipotle crema", 13.5, ""),
            ("Tacos", "Mushroom Tacos", "Three tacos, roasted mushrooms, salsa roja", 11.0, "v vg gf"),
            ("Burritos", "Chicken Burrito", "Rice, black beans, cheese, pico de gallo", 13.0, ""),
            ("Burritos", "Carnitas Burrito", "Slow-cooked pork, rice, pinto beans", 13.5, ""),
            ("Burritos", "Veggie Burrito", "Fajita vegetables, rice, beans, guacamole", 12.0, "v"),
            ("Bowls", "Burrito Bowl", "Chicken, rice, beans, salsa, lettuce", 13.0, "gf"),
            ("Mains", "Chicken Enchiladas", "Three enchiladas, mole, crema", 16.0, "gf"),
            ("Mains", "Quesadilla", "Flour tortilla, Oaxaca cheese", 10.0, "v"),
            ("Sides", "Chips and Guacamole", "Made to order", 9.0, "v vg gf"),
            ("Sides", "Elote", "Grilled corn, cotija, chili, lime", 5.5, "v gf s"),
            ("Drinks", "Horchata", "Rice milk, cinnamon", 4.0, "v gf"),
            ("Drinks", "Jarritos", "Mandarin, tamarind or lime", 3.0, "v vg gf"),
        ),
    },
    "Burgers": {
        "names": ("{last}'s Burger Joint", "Smash Bros. Burgers", "The Patty Wagon", "{hood} Burger Bar",
                  "Griddle & Bun", "Burger Republic"),
        "hours": ("allday", "late"), "level": "$", "prep": (10, 16), "minimum": (10, 15),
        "blurb": "Smash burgers, hand-cut fries and thick shakes.",
        "menu": (
            ("Burgers", "Classic Cheeseburger", "Double smash patty, American cheese, pickles", 12.0, ""),
            ("Burgers", "Bacon BBQ Burger", "Bacon, cheddar, onion rings, BBQ sauce", 14.5, ""),
            ("Burgers", "Mushroom Swiss Burger", "Sauteed mushrooms, Swiss cheese", 13.5, ""),
            ("Burgers", "Impossible Burger", "Plant-based patty, lettuce, tomato", 14.0, "v vg"),
            ("Burgers", "Spicy Jalapeno Burger", "Pepper jack, jalapenos, chipotle mayo", 13.5, "s"),
            ("Sandwiches", "Crispy Chicken Sandwich", "Buttermilk chicken, slaw, pickles", 12.5, ""),
            ("Sides", "Hand-Cut Fries", "Sea salt", 4.5, "v vg gf"),
            ("Sides", "Sweet Potato Fries", "Chipotle aioli", 5.5, "v gf"),
            ("Sides", "Onion Rings", "Beer-battered", 5.5, "v"),
            ("Shakes", "Vanilla Milkshake", "Madagascar vanilla", 6.5, "v gf"),
            ("Shakes", "Chocolate Milkshake", "Dark chocolate", 6.5, "v gf"),
            ("Drinks", "Lemonade", "Fresh squeezed", 3.5, "v vg gf"),
        ),
    },
    "Mediterranean": {
        "names": ("Olive & Fig", "Pita {hood}", "Aegean Grill", "Byblos Kitchen", "Falafel {first}",
                  "Souvlaki Spot"),
        "hours": ("allday",), "level": "$$", "prep": (10, 18), "minimum": (12, 20),
        "blurb": "Charcoal-grilled skewers, mezze and warm pita.",
        "menu": (
            ("Mezze", "Hummus", "Chickpeas, tahini, olive oil, warm pita", 8.0, "v vg"),
            ("Mezze", "Baba Ganoush", "Smoked eggplant, pomegranate", 8.5, "v vg"),
            ("Mezze", "Falafel", "Six falafel, tahini sauce", 8.0, "v vg gf"),
            ("Mezze", "Dolmades", "Stuffed grape leaves", 7.5, "v vg gf"),
            ("Plates", "Chicken Shawarma Plate", "Rice, salad, garlic sauce", 17.0, "gf"),
            ("Plates", "Lamb Kofta Plate", "Grilled lamb, rice, tzatziki", 19.0, "gf"),
            ("Plates", "Falafel Plate", "Falafel, hummus, tabbouleh, pita", 15.0, "v vg"),
            ("Wraps", "Chicken Gyro Wrap", "Tzatziki, tomato, onion, fries inside", 12.5, ""),
            ("Salads", "Greek Salad", "Tomato, cucumber, feta, olives", 11.0, "v gf"),
            ("Salads", "Fattoush", "Crispy pita, sumac, herbs", 10.0, "v vg"),
            ("Desserts", "Baklava", "Walnuts, honey, phyllo", 6.0, "v"),
            ("Drinks", "Mint Lemonade", "Fresh mint", 4.0, "v vg gf"),
        ),
    },
    "Korean": {
        "names": ("Seoul Kitchen", "Bibimbap House", "K-Town Grill", "Gangnam BBQ", "Hanok", "Kimchi {hood}"),
        "hours": ("allday", "late"), "level": "$$", "prep": (12, 22), "minimum": (15, 20),
        "blurb": "Korean fried chicken, stone-pot bibimbap and stews.",
        "menu": (
            ("Starters", "Kimchi Pancake", "Crispy, with soy dipping sauce", 12.0, "v s"),
            ("Starters", "Mandu", "Six fried pork and vegetable dumplings", 10.0, ""),
            ("Chicken", "Soy Garlic Fried Chicken", "Half order, double fried", 18.0, ""),
            ("Chicken", "Yangnyeom Fried Chicken", "Sweet-spicy gochujang glaze", 18.0, "s"),
            ("Mains", "Dolsot Bibimbap", "Stone pot rice, vegetables, egg, beef", 18.0, ""),
            ("Mains", "Tofu Bibimbap", "Stone pot rice, vegetables, tofu", 16.0, "v vg"),
            ("Mains", "Bulgogi", "Marinated rib eye, rice, banchan", 22.0, ""),
            ("Mains", "Spicy Pork Bulgogi", "Gochujang pork, rice, banchan", 20.0, "s"),
            ("Stews", "Kimchi Jjigae", "Kimchi, pork belly, tofu", 16.0, "s"),
            ("Stews", "Soondubu Jjigae", "Silken tofu stew, seafood", 17.0, "s gf"),
            ("Sides", "Japchae", "Glass noodles, vegetables", 12.0, "v vg gf"),
            ("Drinks", "Barley Tea", "Iced", 3.0, "v vg"),
        ),
    },
    "Vietnamese": {
        "names": ("Pho {hood}", "Saigon Corner", "Lemongrass Kitchen", "Banh Mi Co.", "Little Hanoi", "Pho 88"),
        "hours": ("allday",), "level": "$", "prep": (10, 18), "minimum": (10, 15),
        "blurb": "Slow-simmered pho, banh mi and vermicelli bowls.",
        "menu": (
            ("Starters", "Imperial Rolls", "Crispy pork rolls, nuoc cham", 8.0, ""),
            ("Starters", "Tofu Summer Rolls", "Rice paper, herbs, peanut sauce", 7.5, "v vg gf"),
            ("Pho", "Pho Tai", "Rare eye of round, rice noodles, beef broth", 15.0, "gf"),
            ("Pho", "Pho Ga", "Chicken pho", 14.5, "gf"),
            ("Pho", "Vegetable Pho", "Mushroom broth, tofu, greens", 14.0, "v vg gf"),
            ("Banh Mi", "Grilled Pork Banh Mi", "Pickled daikon, cilantro, jalapeno", 10.0, "s"),
            ("Banh Mi", "Lemongrass Tofu Banh Mi", "Pickles, cilantro, vegan mayo", 9.5, "v vg"),
            ("Bowls", "Bun Cha", "Grilled pork, vermicelli, herbs", 15.0, "gf"),
            ("Bowls", "Lemongrass Chicken Vermicelli", "Herbs, peanuts, nuoc cham", 14.5, "gf"),
            ("Rice", "Broken Rice with Pork Chop", "Egg meatloaf, pickles", 16.0, "gf"),
            ("Drinks", "Vietnamese Iced Coffee", "Condensed milk", 5.0, "v gf"),
        ),
    },
    "Breakfast": {
        "names": ("Sunny Side Diner", "The Breakfast Club", "{hood} Cafe", "Early Bird Kitchen",
                  "Morning Glory", "Eggs & Co.", "Biscuit Bros."),
        "hours": ("breakfast",), "level": "$", "prep": (10, 18), "minimum": (10, 15),
        "blurb": "All-morning breakfast, brunch plates and coffee.",
        "menu": (
            ("Breakfast", "Avocado Toast", "Sourdough, smashed avocado, chili flakes, egg", 12.0, "v"),
            ("Breakfast", "Classic Breakfast Plate", "Two eggs, bacon, hash browns, toast", 13.5, ""),
            ("Breakfast", "Buttermilk Pancakes", "Three pancakes, maple syrup, butter", 11.0, "v"),
            ("Breakfast", "Eggs Benedict", "Poached eggs, ham, hollandaise, muffin", 15.0, ""),
            ("Breakfast", "Breakfast Burrito", "Eggs, chorizo, potatoes, cheese, salsa", 12.5, "s"),
            ("Breakfast", "Vegan Tofu Scramble", "Turmeric tofu, spinach, potatoes", 12.0, "v vg gf"),
            ("Breakfast", "Greek Yogurt Parfait", "Granola, berries, honey", 8.0, "v"),
            ("Breakfast", "Bagel with Lox", "Cream cheese, capers, red onion", 13.0, ""),
            ("Sandwiches", "BLT", "Bacon, lettuce, tomato, mayo on sourdough", 11.0, ""),
            ("Sides", "Side of Bacon", "Four strips", 4.5, "gf"),
            ("Drinks", "Latte", "Double shot, 12 oz", 5.0, "v gf"),
            ("Drinks", "Cold Brew", "16 oz", 4.5, "v vg gf"),
            ("Drinks", "Fresh Orange Juice", "12 oz", 5.5, "v vg gf"),
        ),
    },
    "Salads": {
        "names": ("Green Bowl", "Leaf & Grain", "Sprout Kitchen", "The Salad Lab", "Harvest Table"),
        "hours": ("allday", "breakfast"), "level": "$$", "prep": (8, 14), "minimum": (10, 15),
        "blurb": "Seasonal salads and grain bowls, dressings made in house.",
        "menu": (
            ("Salads", "Kale Caesar", "Kale, parmesan, garlic breadcrumbs", 13.0, "v"),
            ("Salads", "Cobb Salad", "Chicken, bacon, egg, avocado, blue cheese", 15.0, "gf"),
            ("Salads", "Harvest Salad", "Roasted squash, apples, goat cheese, pecans", 14.0, "v gf"),
            ("Bowls", "Chicken Pesto Bowl", "Quinoa, chicken, pesto, tomatoes", 15.5, "gf"),
            ("Bowls", "Salmon Poke Bowl", "Rice, salmon, avocado, edamame, ponzu", 17.0, "gf"),
            ("Bowls", "Falafel Grain Bowl", "Farro, falafel, hummus, pickled onion", 14.0, "v vg"),
            ("Bowls", "Tofu Power Bowl", "Brown rice, tofu, greens, miso dressing", 13.5, "v vg gf"),
            ("Soups", "Tomato Basil Soup", "12 oz", 6.5, "v vg gf"),
            ("Sides", "Sourdough Bread", "With cultured butter", 3.0, "v"),
            ("Drinks", "Green Juice", "Kale, apple, ginger, lemon", 7.0, "v vg gf"),
            ("Drinks", "Kombucha", "Ginger lemon", 5.0, "v vg gf"),
        ),
    },
    "Bakery": {
        "names": ("{last}'s Bakery", "Flour & Crumb", "Rise Bakehouse", "Le Petit Four", "The Bread Box"),
        "hours": ("bakery",), "level": "$", "prep": (6, 12), "minimum": (8, 12),
        "blurb": "Croissants, pastries and cakes baked every morning.",
        "menu": (
            ("Pastries", "Butter Croissant", "Laminated for three days", 4.5, "v"),
            ("Pastries", "Almond Croissant", "Frangipane, toasted almonds", 5.5, "v"),
            ("Pastries", "Pain au Chocolat", "Dark chocolate batons", 5.0, "v"),
            ("Pastries", "Cinnamon Roll", "Cream cheese frosting", 5.5, "v"),
            ("Pastries", "Blueberry Muffin", "Streusel top", 4.0, "v"),
            ("Pastries", "Vegan Banana Bread", "Slice", 4.0, "v vg"),
            ("Cakes", "Chocolate Cake Slice", "Three layers, ganache", 7.5, "v"),
            ("Cakes", "Flourless Chocolate Torte", "Slice", 7.0, "v gf"),
            ("Sandwiches", "Ham and Gruyere Croissant", "Dijon, baked to order", 9.5, ""),
            ("Breads", "Country Sourdough Loaf", "Whole loaf", 9.0, "v vg"),
            ("Drinks", "Cappuccino", "12 oz", 4.75, "v gf"),
            ("Drinks", "Hot Chocolate", "12 oz", 4.5, "v gf"),
        ),
    },
}

COURIERS = ("Marco", "Aisha", "Dev", "Lena", "Tomas", "Keisha", "Sam", "Nina", "Jorge", "Mei", "Andre",
            "Priya", "Luis", "Hana", "Omar", "Grace")
APARTMENTS = ("Apt 3B", "Unit 12", "Apt 4F", "Suite 200", "Floor 5", "Apt 2A", None, None, None)
INSTRUCTIONS = ("Leave at the door", "Call when you arrive", "Buzz 4F, then take the elevator",
                "Hand it to the front desk", "Side entrance by the garage", None)
REVIEW_COMMENTS = {
    5: ("Perfect, arrived hot.", "Best {dish} in town.", "Fast delivery and generous portions.", None),
    4: ("Very good, a little late.", "Tasty {dish}, would order again.", None),
    3: ("Fine, but the {dish} was lukewarm.", "Okay. Portions were small.", None),
    2: ("The {dish} was soggy.", "Missing the sauce I asked for.",),
    1: ("Order arrived cold and an hour late.",),
}
GIFT_MESSAGES = ("Happy birthday! Dinner is on me.", "Thanks for all your help with the move!",
                 "Enjoy a night off from cooking.", None)

EPOCH_DAY = date(2026, 3, 16)


def clock(text: str) -> int:
    """'HH:MM' as minutes after midnight."""
    h, m = text.split(":")
    return int(h) * 60 + int(m)


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    return _Builder(w).build()


class _Builder(WorldBuilder):
    def __init__(self, w: WorldGen) -> None:
        super().__init__(w)
        self.city = self.rng.choice(sorted(CITIES))
        self.state, self.zip_prefix, self.tax_rate, self.hoods = CITIES[self.city]

    def build(self) -> dict[str, list[dict[str, Any]]]:
        self._neighborhoods()
        self._restaurants()
        self._customer()
        self._addresses()
        self._ensure_breakfast()
        self._payments()
        self._gift_cards()
        self._promos()
        self._orders()
        self._favorites()
        self._cart()
        order = ("neighborhoods", "restaurants", "restaurant_hours", "delivery_zones", "menu_items",
                 "addresses", "payment_methods", "customers", "wallet_cards", "gift_cards", "promo_codes",
                 "favorites", "carts", "cart_items", "orders", "order_items", "reviews")
        return {name: self.rows.get(name, []) for name in order}

    # ----- places ---------------------------------------------------------------------------------

    def _neighborhoods(self) -> None:
        zips = self.rng.sample(range(1, 99), len(self.hoods))
        self.rows["neighborhoods"] = [
            {"name": hood, "city": self.city, "zip": f"{self.zip_prefix}{z:02d}"}
            for hood, z in zip(self.hoods, zips)]

    def _restaurants(self) -> None:
        rng = self.rng
        # Every cuisine at least twice, breakfast places and pizza three times, about 36 in all.
        plan = [c for c in CUISINES for _ in range(2)] + ["Breakfast", "Pizza", "Mexican", "Japanese"]
        plan += rng.sample(sorted(CUISINES), 6)
        rng.shuffle(plan)
        restaurants, hours, zones, items = [], [], [], []
        names: set[str] = set()
        for cuisine in plan:
            spec = CUISINES[cuisine]
            hood = rng.choice(self.hoods)
            name = self._restaurant_name(spec["names"], hood, names)
            if name is None:
                continue
            rid = self.w.new_id("RST")
            count = rng.randint(40, 1800)
            avg = rng.uniform(3.6, 4.9)
            lo, hi = spec["minimum"]
            restaurants.append({
                "restaurant_id": rid, "name": name, "cuisine": cuisine,
                "description": spec["blurb"].format(deg=rng.choice((800, 850, 900))),
                "neighborhood": hood, "street_address": self.fake.street_address(),
                "phone": self.fake.phone(),
                "price_level": spec["level"], "prep_minutes": rng.randint(*spec["prep"]),
                "minimum_order": float(rng.randint(lo, hi)),
                "rating_total": round(avg * count), "rating_count": count,
            })
            hours.extend(self._hours(rid, rng.choice(spec["hours"])))
            zones.extend(self._zones(rid, hood))
            items.extend(self._menu(rid, spec["menu"]))
        self.rows.update(restaurants=restaurants, restaurant_hours=hours, delivery_zones=zones,
                           menu_items=items)

    def _restaurant_name(self, patterns: tuple[str, ...], hood: str, taken: set[str]) -> str | None:
        for _ in range(20):
            person = self.fake.person()
            name = self.rng.choice(patterns).format(last=person.last, first=person.first, hood=hood)
            if name not in taken:
                taken.add(name)
                return name
        return None

    def _hours(self, rid: str, kind: str) -> list[dict[str, Any]]:
        opens, closes = self.rng.choice(HOURS[kind])
        closed: set[int] = set()
        if kind in ("dinner", "bakery") or self.rng.random() < 0.25:
            closed.add(self.rng.choice((0, 0, 1)))      # many restaurants rest on Monday or Tuesday
        rows = []
        for wd in range(7):
            if wd in closed:
                continue
            o, c = opens, closes
            if wd >= 5 and kind == "breakfast":
                o, c = "08:00", "15:00"                  # weekend brunch hours
            if wd in (4, 5) and kind in ("allday", "dinner") and clock(c) <= clock("22:30"):
                c = "23:00"                              # open later on Friday and Saturday
            rows.append({"restaurant_id": rid, "weekday": wd, "opens": o, "closes": c})
        return rows

    def _zones(self, rid: str, hood: str) -> list[dict[str, Any]]:
        others = [h for h in self.hoods if h != hood]
        reach = [hood] + self.rng.sample(others, self.rng.randint(2, 5))
        rows = []
        for i, h in enumerate(reach):
            base = 0.99 if i == 0 else self.rng.choice((1.99, 2.49, 2.99, 3.49, 3.99, 4.99))
            rows.append({"restaurant_id": rid, "neighborhood": h, "delivery_fee": base,
                         "delivery_minutes": self.rng.randint(12, 20) if i == 0 else self.rng.randint(20, 40)})
        return rows

    def _menu(self, rid: str, menu: tuple[Item, ...]) -> list[dict[str, Any]]:
        n = min(len(menu), self.rng.randint(10, 14))
        keep = sorted(self.rng.sample(range(len(menu)), n))
        popular = set(self.rng.sample(keep, 3))
        bump = self.rng.choice((-1.0, -0.5, 0.0, 0.0, 0.5, 1.0, 1.5, 2.0))
        rows = []
        for i in keep:
            category, name, desc, price, tags = menu[i]
            tagset = set(tags.split())
            rows.append({
                "item_id": self.w.new_id("ITM"), "restaurant_id": rid, "category": category, "name": name,
                "description": desc, "price": max(1.5, round(price + (bump if price > 6 else 0), 2)),
                "vegetarian": int("v" in tagset), "vegan": int("vg" in tagset),
                "gluten_free": int("gf" in tagset), "spicy": int("s" in tagset),
                "popular": int(i in popular), "available": int(self.rng.random() > 0.06),
            })
        return rows

    # ----- the customer ---------------------------------------------------------------------------

    def _customer(self) -> None:
        self.person = self.fake.person()
        self.customer = {
            "customer_id": self.w.new_id("CUS"), "name": self.person.name,
            "email": self.fake.email(self.person), "phone": self.fake.phone(), "city": self.city,
            "tax_rate": self.tax_rate,
            "member_since": self.fake.date_between(date(2021, 1, 1), date(2024, 12, 31)).isoformat(),
            "credit_balance": self.rng.choice((0.0, 0.0, 5.0, 7.5, 12.25)),
            "default_address_id": None, "default_payment_method_id": None,
        }
        self.rows["customers"] = [self.customer]

    def _addresses(self) -> None:
        hoods = self.rng.sample(self.hoods, 3)
        rows = []
        for label, hood in zip(("Home", "Work", self.rng.choice(("Gym", "Mom's place", "Studio", "Partner's place"))),
                               hoods):
            rows.append({
                "address_id": self.w.new_id("ADR"), "label": label, "street": self.fake.street_address(),
                "apartment": self.rng.choice(APARTMENTS) if label != "Work" else self.rng.choice(("Floor 3", "Suite 410")),
                "neighborhood": hood, "instructions": self.rng.choice(INSTRUCTIONS), "deleted": 0,
                "created_at": iso(datetime(2025, 1, 1, 12) + timedelta(days=self.rng.randint(0, 300))),
            })
        self.addresses = rows
        self.home = rows[0]
        self.customer["default_address_id"] = rows[0]["address_id"]
        self.rows["addresses"] = rows

    def _ensure_breakfast(self) -> None:
        """At the epoch (Monday 09:00) some place that opened early delivers to Home."""
        hours = {(h["restaurant_id"], h["weekday"]): h for h in self.rows["restaurant_hours"]}
        early = [r for r in self.rows["restaurants"] if r["cuisine"] in ("Breakfast", "Bakery")]
        morning = [r for r in early if (h := hours.get((r["restaurant_id"], 0))) and h["opens"] <= "08:15"
                   and h["closes"] >= "12:00"]
        if any(self._zone(r["restaurant_id"], self.home["neighborhood"]) for r in morning):
            return
        rest = morning[0] if morning else early[0]
        if not morning:
            self.rows["restaurant_hours"].append(
                {"restaurant_id": rest["restaurant_id"], "weekday": 0, "opens": "07:00", "closes": "15:00"})
        if self._zone(rest["restaurant_id"], self.home["neighborhood"]) is None:
            self.rows["delivery_zones"].append({"restaurant_id": rest["restaurant_id"],
                                                  "neighborhood": self.home["neighborhood"], "delivery_fee": 2.99,
                                                  "delivery_minutes": 30})

    def _payments(self) -> None:
        rng = self.rng
        specs = [("Visa", "4", rng.randint(2027, 2030)), ("Mastercard", "5" + str(rng.randint(1, 5)), rng.randint(2026, 2029)),
                 ("American Express", rng.choice(("34", "37")), 2026)]
        rows = []
        for i, (brand, prefix, year) in enumerate(specs):
            month = rng.randint(1, 12) if i < 2 else rng.choice((1, 2))   # the Amex expired in Jan/Feb 2026
            if i == 1 and year == 2026:
                month = rng.randint(8, 12)
            last4 = self.fake.digits(4)
            rows.append({"payment_method_id": self.w.new_id("PM"), "nickname": f"{brand} ending {last4}",
                         "brand": brand, "last4": last4, "exp_month": month, "exp_year": year,
                         "added_at": iso(datetime(2024, 6, 1, 10) + timedelta(days=rng.randint(0, 500)))})
        self.payments = rows
        self.customer["default_payment_method_id"] = rows[0]["payment_method_id"]
        self.rows["payment_methods"] = rows
        prefix = rng.choice(("4", "51", "52", "55"))
        number = self.fake.card_number(prefix, 16)
        self.rows["wallet_cards"] = [{
            "card_number": number, "brand": "Visa" if prefix == "4" else "Mastercard",
            "expiry": f"{rng.randint(1, 12):02d}/{rng.randint(27, 31)}", "cvv": self.fake.digits(3),
            "holder": self.person.name.upper()}]

    def _gift_cards(self) -> None:
        rows = []
        messages = self.rng.sample(GIFT_MESSAGES, 3)
        for i in range(3):
            giver = self.fake.person()
            code = "-".join(self.fake.code(4) for _ in range(3))
            rows.append({"gift_card_id": self.w.new_id("GC"), "code": code,
                         "amount": float(self.rng.choice((15, 20, 25, 40, 50))), "from_name": giver.name,
                         "message": messages[i],
                         "redeemed_at": iso(datetime(2025, 12, 26, 19, 5)) if i == 2 else None})
        self.rows["gift_cards"] = rows

    def _promos(self) -> None:
        rng = self.rng
        rests = self.rows["restaurants"]
        cuisine = rng.choice(("Japanese", "Thai", "Indian", "Korean"))
        featured = rng.choice(rests)
        second = rng.choice([r for r in rests if r["cuisine"] != featured["cuisine"]])
        short = "".join(ch for ch in featured["name"].split()[0].upper() if ch.isalpha())[:8] or "LOCAL"
        today = EPOCH_DAY
        rows = [
            {"code": "WELCOME10", "description": "$10 off your first order of $20 or more", "kind": "amount",
             "value": 10.0, "max_discount": None, "min_subtotal": 20.0, "restaurant_id": None, "cuisine": None,
             "valid_from": "2021-01-01", "valid_until": "2026-12-31"},
            {"code": "SPRING15", "description": "15% off orders of $25 or more (up to $12)", "kind": "percent",
             "value": 15.0, "max_discount": 12.0, "min_subtotal": 25.0, "restaurant_id": None, "cuisine": None,
             "valid_from": "2026-03-01", "valid_until": "2026-04-30"},
            {"code": "FREEDEL", "description": "Free delivery on orders of $15 or more", "kind": "free_delivery",
             "value": 0.0, "max_discount": None, "min_subtotal": 15.0, "restaurant_id": None, "cuisine": None,
             "valid_from": "2026-03-09", "valid_until": (today + timedelta(days=rng.randint(10, 30))).isoformat()},
            {"code": f"{cuisine.upper()}20", "description": f"20% off {cuisine} food (up to $15, min $30)",
             "kind": "percent", "value": 20.0, "max_discount": 15.0, "min_subtotal": 30.0, "restaurant_id": None,
             "cuisine": cuisine, "valid_from": "2026-02-15", "valid_until": "2026-03-31"},
            {"code": f"{short}5", "description": f"$5 off at {featured['name']}", "kind": "amount", "value": 5.0,
             "max_discount": None, "min_subtotal": 15.0, "restaurant_id": featured["restaurant_id"], "cuisine": None,
             "valid_from": "2026-03-01", "valid_until": "2026-05-31"},
            {"code": "TAKE8", "description": f"$8 off $35 or more at {second['name']}", "kind": "amount",
             "value": 8.0, "max_discount": None, "min_subtotal": 35.0, "restaurant_id": second["restaurant_id"],
             "cuisine": None, "valid_from": "2026-03-10", "valid_until": "2026-04-15"},
            {"code": "WINTER20", "description": "20% off any order (up to $10)", "kind": "percent", "value": 20.0,
             "max_discount": 10.0, "min_subtotal": 0.0, "restaurant_id": None, "cuisine": None,
             "valid_from": "2025-12-01", "valid_until": "2026-02-28"},
            {"code": "LATENIGHT", "description": "$4 off orders of $18 or more", "kind": "amount", "value": 4.0,
             "max_discount": None, "min_subtotal": 18.0, "restaurant_id": None, "cuisine": None,
             "valid_from": "2026-01-01", "valid_until": "2026-06-30"},
        ]
        self.rows["promo_codes"] = rows

    # ----- history --------------------------------------------------------------------------------

    def _zone(self, rid: str, hood: str) -> dict[str, Any] | None:
        for z in self.rows["delivery_zones"]:
            if z["restaurant_id"] == rid and z["neighborhood"] == hood:
                return z
        return None

    def _open_slots(self, rid: str, day: date) -> tuple[int, int] | None:
        for h in self.rows["restaurant_hours"]:
            if h["restaurant_id"] == rid and h["weekday"] == day.weekday():
                return clock(h["opens"]), clock(h["closes"])
        return None

    def _orders(self) -> None:
        rng = self.rng
        rests = self.rows["restaurants"]
        items_by = {}
        for it in self.rows["menu_items"]:
            items_by.setdefault(it["restaurant_id"], []).append(it)
        home, work = self.addresses[0], self.addresses[1]
        reachable = {a["address_id"]: [r for r in rests if self._zone(r["restaurant_id"], a["neighborhood"])]
                     for a in self.addresses}
        regulars = rng.sample(reachable[home["address_id"]], min(10, len(reachable[home["address_id"]])))
        self.regulars = regulars
        orders, lines, reviews = [], [], []
        self.orders_rows, self.lines, self.reviews = orders, lines, reviews
        used_welcome = False
        specs: list[tuple[datetime, dict[str, Any], dict[str, Any], str]] = []
        day = EPOCH_DAY - timedelta(days=95)
        while day < EPOCH_DAY - timedelta(days=1):
            day += timedelta(days=rng.choice((1, 2, 2, 3, 3, 4)))
            if day >= EPOCH_DAY - timedelta(days=1):
                break
            at_work = day.weekday() < 5 and rng.random() < 0.35
            addr = work if at_work else home
            pool = [r for r in regulars if self._zone(r["restaurant_id"], addr["neighborhood"])] or \
                reachable[addr["address_id"]]
            if not pool:
                continue
            rest = rng.choice(pool)
            slots = self._open_slots(rest["restaurant_id"], day)
            if slots is None:
                continue
            lo, hi = slots
            target = rng.randint(11 * 60 + 30, 13 * 60 + 30) if at_work else rng.randint(18 * 60, 21 * 60)
            target = min(max(target, lo + 15), hi - 30)
            placed = datetime.combine(day, time()) + timedelta(minutes=target)
            specs.append((placed, rest, addr, "past"))
        for placed, rest, addr, _ in specs:
            status = "cancelled" if rng.random() < 0.07 else "delivered"
            promo = None
            if not used_welcome and status == "delivered":
                promo, used_welcome = "WELCOME10", True
            self._order(placed, rest, addr, items_by[rest["restaurant_id"]], status=status, promo=promo,
                        review=status == "delivered" and rng.random() < 0.55)

        # Last night's dinner: delivered, not rated, tip still adjustable.
        dinner = [r for r in reachable[home["address_id"]]
                  if (s := self._open_slots(r["restaurant_id"], EPOCH_DAY - timedelta(days=1))) and s[1] >= clock("21:00")]
        if dinner:
            rest = rng.choice(dinner)
            placed = datetime.combine(EPOCH_DAY - timedelta(days=1), time(19, rng.choice((5, 20, 35))))
            self._order(placed, rest, home, items_by[rest["restaurant_id"]], status="delivered", review=False)
        # This morning's breakfast: on its way at the epoch (cannot be cancelled).
        morning = [r for r in reachable[home["address_id"]]
                   if (s := self._open_slots(r["restaurant_id"], EPOCH_DAY)) and s[0] <= clock("08:15")]
        if not morning:
            morning = [r for r in rests if (s := self._open_slots(r["restaurant_id"], EPOCH_DAY))
                       and s[0] <= clock("08:15") and self._zone(r["restaurant_id"], home["neighborhood"])]
        if morning:
            rest = rng.choice(morning)
            zone = self._zone(rest["restaurant_id"], home["neighborhood"])
            minutes = CONFIRM_MINUTES + rest["prep_minutes"] + zone["delivery_minutes"]
            placed = datetime.combine(EPOCH_DAY, time(9)) - timedelta(minutes=minutes - rng.randint(8, 12))
            self._order(placed, rest, home, items_by[rest["restaurant_id"]], status="active")
        # Tonight's dinner at work... or home: scheduled yesterday for 19:00 today (cancellable).
        tonight = [r for r in reachable[home["address_id"]]
                   if (s := self._open_slots(r["restaurant_id"], EPOCH_DAY)) and s[0] <= clock("18:00") <= s[1] - 60]
        if tonight:
            rest = rng.choice(tonight)
            placed = datetime.combine(EPOCH_DAY - timedelta(days=1), time(21, 40))
            self._order(placed, rest, home, items_by[rest["restaurant_id"]], status="active",
                        scheduled=datetime.combine(EPOCH_DAY, time(19, 0)))
        self.rows.update(orders=orders, order_items=lines, reviews=reviews)

    def _order(self, placed: datetime, rest: dict[str, Any], addr: dict[str, Any], menu: list[dict[str, Any]], *,
               status: str, promo: str | None = None, review: bool = False,
               scheduled: datetime | None = None) -> None:
        rng = self.rng
        rid = rest["restaurant_id"]
        zone = self._zone(rid, addr["neighborhood"])
        oid = self.w.new_id("ORD")
        picks = rng.sample(menu, min(len(menu), rng.randint(1, 4)))
        subtotal = 0.0
        for line, item in enumerate(picks, 1):
            qty = rng.choice((1, 1, 1, 2, 2, 3)) if item["price"] < 10 else rng.choice((1, 1, 2))
            subtotal += qty * item["price"]
            self.lines.append({"order_id": oid, "line": line, "item_id": item["item_id"], "name": item["name"],
                               "quantity": qty, "unit_price": item["price"],
                               "special_instructions": self._instructions(item)})
        while subtotal < rest["minimum_order"]:
            item = rng.choice(menu)
            line = len([x for x in self.lines if x["order_id"] == oid]) + 1
            self.lines.append({"order_id": oid, "line": line, "item_id": item["item_id"], "name": item["name"],
                               "quantity": 1, "unit_price": item["price"], "special_instructions": None})
            subtotal += item["price"]
        subtotal = round(subtotal, 2)
        discount = 10.0 if promo == "WELCOME10" else 0.0
        delivery_fee = zone["delivery_fee"]
        service = round(min(max(subtotal * SERVICE_FEE_RATE, SERVICE_FEE_MIN), SERVICE_FEE_MAX), 2)
        tax = round((subtotal - discount) * self.tax_rate / 100, 2)
        tip = rng.choice((2.0, 3.0, 4.0, 5.0, round(subtotal * 0.15, 2), round(subtotal * 0.2, 2)))
        total = round(subtotal - discount + delivery_fee + service + tax + tip, 2)
        if scheduled is not None:
            delivered = scheduled
            ready = scheduled - timedelta(minutes=zone["delivery_minutes"])
            prep = ready - timedelta(minutes=rest["prep_minutes"])
        else:
            prep = placed + timedelta(minutes=CONFIRM_MINUTES)
            ready = prep + timedelta(minutes=rest["prep_minutes"])
            delivered = ready + timedelta(minutes=zone["delivery_minutes"] + rng.choice((-3, 0, 0, 2, 5, 12)))
        cancelled = placed + timedelta(minutes=rng.randint(1, 4)) if status == "cancelled" else None
        pm = rng.choice(self.payments[:2])
        self.orders_rows.append({
            "order_id": oid, "restaurant_id": rid, "restaurant_name": rest["name"], "address_id": addr["address_id"],
            "payment_method_id": pm["payment_method_id"], "placed_at": iso(placed),
            "scheduled_for": iso(scheduled) if scheduled else None, "prep_start_at": iso(prep),
            "ready_at": iso(ready), "delivered_at": iso(delivered),
            "cancelled_at": iso(cancelled) if cancelled else None,
            "cancel_reason": rng.choice(("Ordered by mistake", "Plans changed", "Wrong address")) if cancelled else None,
            "subtotal": subtotal, "promo_code": promo, "discount": discount, "delivery_fee": delivery_fee,
            "service_fee": service, "tax": tax, "tip": tip, "total": total, "credit_applied": 0.0,
            "charged": total, "refunded": total if cancelled else 0.0,
            "dropoff_instructions": addr["instructions"], "courier_name": f"{rng.choice(COURIERS)} {rng.choice('ABCDEFGHJKLMNPRSTW')}.",
        })
        if review:
            stars = rng.choice((5, 5, 5, 4, 4, 4, 3, 2, 1))
            dish = rng.choice(picks)["name"]
            comment = rng.choice(REVIEW_COMMENTS[stars])
            self.reviews.append({
                "review_id": self.w.new_id("REV"), "order_id": oid, "restaurant_id": rid, "food_rating": stars,
                "delivery_rating": rng.choice((None, 5, 5, 4, 3)), "comment": comment.format(dish=dish) if comment else None,
                "created_at": iso(delivered + timedelta(hours=rng.randint(1, 20)))})
            rest["rating_total"] += stars
            rest["rating_count"] += 1

    def _instructions(self, item: dict[str, Any]) -> str | None:
        if self.rng.random() > 0.15:
            return None
        if item["spicy"]:
            return self.rng.choice(("Extra spicy", "Mild, please"))
        if item["category"] in ("Drinks", "Shakes"):
            return self.rng.choice(("No ice", "Light ice"))
        return self.rng.choice(("Sauce on the side", "No onions", "No cilantro", "Extra napkins, please"))

    def _favorites(self) -> None:
        picks = self.rng.sample(self.regulars, min(4, len(self.regulars)))
        self.rows["favorites"] = [
            {"restaurant_id": r["restaurant_id"],
             "added_at": iso(datetime(2025, 10, 1, 20) + timedelta(days=self.rng.randint(0, 150)))}
            for r in sorted(picks, key=lambda r: r["restaurant_id"])]

    def _cart(self) -> None:
        """A cart the customer filled last night and did not check out."""
        ordered = {o["restaurant_id"] for o in self.orders_rows}
        candidates = [r for r in self.rows["restaurants"]
                      if r["restaurant_id"] not in ordered and self._zone(r["restaurant_id"], self.home["neighborhood"])]
        rest = self.rng.choice(candidates or self.rows["restaurants"])
        menu = [it for it in self.rows["menu_items"] if it["restaurant_id"] == rest["restaurant_id"] and it["available"]]
        cart_id = self.w.new_id("CRT")
        at = iso(datetime.combine(EPOCH_DAY - timedelta(days=1), time(22, 10)))
        self.rows["carts"] = [{"cart_id": cart_id, "restaurant_id": rest["restaurant_id"], "promo_code": None,
                                 "created_at": at, "updated_at": at}]
        self.rows["cart_items"] = [
            {"cart_item_id": self.w.new_id("CI"), "cart_id": cart_id, "item_id": it["item_id"], "name": it["name"],
             "quantity": self.rng.randint(1, 2), "special_instructions": None, "added_at": at}
            for it in self.rng.sample(menu, min(2, len(menu)))]
        if self.rng.random() < PROMO_ON_CART_SHARE:
            self._promo_on_cart(rest, menu)

    def _promo_on_cart(self, rest: dict[str, Any], menu: list[dict[str, Any]]) -> None:
        """The customer put a promo code on last night's cart, one that fits it: valid today, for
        this restaurant or its cuisine or for any, not used yet, and its minimum met."""
        cart = self.rows["carts"][0]
        price = {it["item_id"]: it["price"] for it in menu}
        subtotal = sum(line["quantity"] * price[line["item_id"]] for line in self.rows["cart_items"])
        used = {o["promo_code"] for o in self.orders_rows if o["promo_code"] and o["cancelled_at"] is None}
        today = EPOCH_DAY.isoformat()
        fitting = [p["code"] for p in self.rows["promo_codes"]
                   if p["valid_from"] <= today <= p["valid_until"] and p["code"] not in used
                   and p["restaurant_id"] in (None, rest["restaurant_id"]) and p["cuisine"] in (None, rest["cuisine"])
                   and subtotal >= p["min_subtotal"]]
        if fitting:
            cart["promo_code"] = self.rng.choice(fitting)
            cart["updated_at"] = iso(datetime.fromisoformat(cart["created_at"]) + timedelta(minutes=self.rng.randint(2, 6)))
